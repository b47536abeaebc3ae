/** The roles that upload and review scans (the contract's rows of /api/scans). */
export type ScanRole = 'admin' | 'coordinator' | 'organizator';

/** Where a role's scans screens are. */
export const scansPath = (role: ScanRole) => `/${role}/scans`;
export const reviewPath = (role: ScanRole) => `/${role}/scans/review`;
