import { z } from 'zod';

/*
 * The answer form (бланк ответов) of an exam work: GET /api/exam/test/examwork/{id}/blanks answers
 * the printable PDF, or with `format=layout` where that PDF's machine-readable parts lie, so a
 * scanned sheet can be read (docs/paper-forms.md). Both come from the server's one layout pass.
 */

export const BLANK_FORMATS = ['pdf', 'layout'] as const;

export const blanksQuerySchema = z.strictObject({
  format: z
    .enum(BLANK_FORMATS)
    .default('pdf')
    .describe('pdf (default): the printable form; layout: where its marks, bubbles and boxes lie, as JSON'),
});
export type BlanksQuery = z.infer<typeof blanksQuerySchema>;

const points = z.number().finite().describe('PDF points (1/72 inch) from the top left of the page');
const size = z.number().finite().positive();

export const blankMarkSchema = z
  .object({ x: points, y: points, size: size.describe('side of the solid black square, points') })
  .describe('A registration mark: a solid black square centred on (x, y), one near each corner');

export const blankBubbleSchema = z
  .object({
    variantTaskId: z.number().int().positive(),
    value: z
      .string()
      .describe(
        'What a filled bubble means: an option id (choices); "<column>:<digit>", "sign:-" or "comma:<column>" ' +
          '(digit grids, columns from 1; a comma after that column); "<left id>:<right id>" (matching); ' +
          '"<item id>:<position>" (ordering); "<gap id>:<option id>" (a choice gap of a cloze task)',
      ),
    x: points.describe('centre'),
    y: points.describe('centre'),
    r: size.describe('radius to the middle of the printed ring, points'),
  })
  .describe('A bubble to fill');

export const blankBoxSchema = z
  .object({
    variantTaskId: z.number().int().positive(),
    kind: z.enum(['text', 'essay']).describe('text: a short answer to key in; essay: an area for experts'),
    part: z.string().optional().describe('the gap id, for a gap of a cloze task (a task with several boxes)'),
    x: points.describe('left edge of the printed frame'),
    y: points.describe('top edge of the printed frame'),
    w: size,
    h: size,
  })
  .describe('A framed area written in by hand');

export const blankLayoutSchema = z
  .object({
    pages: z.array(
      z.object({
        page: z.number().int().positive(),
        widthPt: size,
        heightPt: size,
        marks: z.array(blankMarkSchema),
        bubbles: z.array(blankBubbleSchema),
        boxes: z.array(blankBoxSchema),
      }),
    ),
  })
  .describe('Where the machine-readable parts of each page of the answer form lie');
export type BlankLayout = z.infer<typeof blankLayoutSchema>;
export type BlankLayoutPage = BlankLayout['pages'][number];
