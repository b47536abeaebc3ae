export * from './roles.js';
export * from './errors.js';
export * from './paging.js';
export * from './account.js';
export * from './endpoints.js';
export * from './content.js';
