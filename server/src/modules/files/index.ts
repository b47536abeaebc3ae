/*
 * Owns: stored uploads checked by content (sniffed type, size, quota) and downloads.
 * Calls: no other module.
 *
 * The files module's public face: storing uploads checked by content (sniffed type, size, the
 * caller's storage quota) and reading a stored file. Other modules import this file only.
 */
export { lockedUploadAllowance, openFile, storeFiles, uploadAllowance } from './files.service.js';
export { checkFile, MULTIPART_LIMITS, readUploadForm, type IncomingFile } from './upload.js';
export { filesRoutes } from './files.routes.js';
