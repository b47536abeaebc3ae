/** A file attached to an answer of the result (server/src/modules/files): its download URL. */
import { callPath } from '../../../lib/call';

export const filePath = (id: number) => callPath('GET /api/files/{id}', { id });
