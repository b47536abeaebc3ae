export * from './org.js';
export * from './users.js';
export * from './content.js';
export * from './diagnostics.js';
