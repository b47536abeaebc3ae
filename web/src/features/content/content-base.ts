/** Where the admin's content section lives (the routes and every page of the section link from it). */
export const CONTENT_BASE = '/admin/content';
