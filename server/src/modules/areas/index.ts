/** The areas module's public face: whether an area exists (the admin's school and user forms). */
export { areaExists } from './areas.service.js';
