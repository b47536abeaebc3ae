/**
 * Attesta's PDF toolkit (pdfkit + DejaVu fonts + vector QR codes): answer forms now, result
 * reports and activation-code slips later. Build with createPdf → layout helpers → decoratePages
 * → pdfToBuffer.
 */
export * from './document.js';
export * from './fonts.js';
export * from './layout.js';
export * from './qr.js';
export * from './warm.js';
