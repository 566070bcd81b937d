// Counts o200k_base tokens with OpenAI's own tiktoken (the npm package
// "tiktoken": the Rust original built to WebAssembly), the reference for
// listing/bpe's counts (oracle_test.go). Reads a JSON array of strings on
// stdin and writes a JSON array of their counts (encode_ordinary: special
// tokens in the text are text). The package is loaded from the directory
// WYMCP_TIKTOKEN_DIR (npm install --prefix DIR tiktoken).
const path = require("path");
const { get_encoding } = require(path.join(process.env.WYMCP_TIKTOKEN_DIR, "node_modules", "tiktoken"));
const enc = get_encoding("o200k_base");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const texts = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  process.stdout.write(JSON.stringify(texts.map((t) => enc.encode_ordinary(t).length)));
  enc.free();
});
