// A stand-in for `vscode-languageclient/node`: records what the extension
// builds and lets tests decide whether start succeeds.
import { type FakeClientRecord, state } from "./state";

export enum TransportKind {
  stdio = 0,
  ipc = 1,
  pipe = 2,
  socket = 3,
}

export class LanguageClient {
  readonly record: FakeClientRecord;
  private running = false;
  constructor(id: string, name: string, serverOptions: unknown, clientOptions: unknown) {
    this.record = { id, name, serverOptions, clientOptions, started: 0, disposed: 0, notifications: [] };
    state.clients.push(this.record);
  }
  async start(): Promise<void> {
    this.record.started++;
    if (state.startError !== undefined) {
      throw state.startError;
    }
    this.running = true;
  }
  isRunning(): boolean {
    return this.running;
  }
  async dispose(): Promise<void> {
    this.record.disposed++;
    this.running = false;
  }
  async sendNotification(method: string, params: unknown): Promise<void> {
    this.record.notifications.push({ method, params });
  }
}
