package workspace

import (
	"errors"
	"io/fs"
	"sort"
	"strings"
)

// Skip is a document the analysis does not read: over the size limit, or
// unreadable on disk (docs/architecture.md, "LSP behaviour": never a silent skip).
type Skip struct {
	// URI is the document's exact URI string; Path its disk path, "" for a
	// buffer that is not a file: URI.
	URI, Path string
	// Open reports an open buffer (its size is the buffer's).
	Open bool
	// Size is the document's size in bytes and Limit the size limit
	// (Options.MaxFileSize) when the document is too big; both 0 otherwise.
	Size, Limit int64
	// Err is why the file cannot be read, without the file's own path
	// ("permission denied", "broken symbolic link: no such file or
	// directory"), nil when it is too big.
	Err error
}

// Skipped returns every document not analysed because it is over the size
// limit (an open buffer by its text, a disk file by its size) or cannot be
// read from disk, sorted by URI. An open buffer within the limit is never
// skipped, whatever its disk file.
func (w *Workspace) Skipped() []Skip {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []Skip
	limit := int64(w.opts.MaxFileSize)
	for uri, f := range w.files {
		sk := Skip{URI: uri, Path: f.path, Open: f.open}
		switch {
		case f.open && int64(len(f.text)) > limit:
			sk.Size, sk.Limit = int64(len(f.text)), limit
		case f.open:
			continue
		case f.tooBig:
			sk.Size, sk.Limit = f.size, limit
		case f.readErr != nil:
			sk.Err = f.readErr
			var pe *fs.PathError
			if errors.As(f.readErr, &pe) {
				// The path is the document's own: name the cause only.
				sk.Err = errors.New(strings.Replace(f.readErr.Error(), pe.Error(), pe.Err.Error(), 1))
			}
		default:
			continue
		}
		out = append(out, sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URI < out[j].URI })
	return out
}
