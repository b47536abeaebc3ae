/** An answer's attached file (server/src/modules/files): its download URL. */
import { callPath } from '../../../lib/call';

export const filePath = (id: number) => callPath('GET /api/files/{id}', { id });
