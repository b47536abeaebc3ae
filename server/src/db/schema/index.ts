export * from './org.js';
export * from './users.js';
export * from './content.js';
export * from './diagnostics.js';
export * from './files.js';
export * from './exam.js';
export * from './jobs.js';
export * from './workers.js';
