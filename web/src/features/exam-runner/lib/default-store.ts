import { memoryOutboxStore, openIdbOutboxStore, type OutboxStore } from './outbox-store';

let store: OutboxStore | null = null;

/** IndexedDB where the browser has it; memory otherwise (the status line then warns). */
export function defaultOutboxStore(): OutboxStore {
  store ??= typeof indexedDB !== 'undefined' ? openIdbOutboxStore() : memoryOutboxStore();
  return store;
}
