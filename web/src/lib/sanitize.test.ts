import { describe, expect, it, vi } from 'vitest';
import {
  MAX_SANITIZE_PASSES,
  sanitizeHtml,
  sanitizeHtmlOrEmpty,
  sanitizeWith,
  SanitizeError,
} from './sanitize';

/** The sanitized markup, once parsed, must carry nothing that can run script. */
function expectInert(html: string) {
  const box = document.createElement('div');
  box.innerHTML = html;
  for (const el of box.querySelectorAll('*')) {
    expect(['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'SVG', 'STYLE', 'FORM', 'svg', 'style']).not.toContain(
      el.tagName,
    );
    for (const attr of el.attributes) {
      expect(attr.name).not.toMatch(/^on/i);
      expect(attr.name).not.toBe('style');
      expect(attr.value.replace(/\s/g, '')).not.toMatch(/^(javascript|vbscript|data:text\/html)/i);
    }
  }
  // Re-sanitizing the output must change nothing: what we return is a fixed point.
  expect(sanitizeHtml(html)).toBe(html);
}

describe('sanitizeHtml', () => {
  it('keeps ordinary exam content', () => {
    const html =
      '<p>Найдите <b>значение</b> выражения <i>x</i><sup>2</sup> + H<sub>2</sub>O</p>' +
      '<table><thead><tr><th scope="col">x</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<figure><img src="/api/file/12" alt="рисунок 1" width="200" height="100"><figcaption>Рис. 1</figcaption></figure>' +
      '<ol start="3"><li>один</li></ol><pre><code>print(1)</code></pre><hr>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('keeps MathML formulas', () => {
    const html =
      '<math display="block"><semantics><mrow><mfrac><mi>a</mi><mn>2</mn></mfrac><mo>+</mo>' +
      '<msqrt><mi>b</mi></msqrt></mrow><annotation encoding="application/x-tex">\\frac{a}{2}+\\sqrt{b}</annotation></semantics></math>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('keeps ruby annotations (rb, rt, rtc, rp)', () => {
    const html =
      '<p><ruby><rb>漢字</rb><rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby> <ruby>字<rtc>ji</rtc></ruby></p>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('forces safe link behaviour', () => {
    expect(sanitizeHtml('<a href="https://example.org/doc" title="док" target="_self">док</a>')).toBe(
      '<a href="https://example.org/doc" title="док" target="_blank" rel="noopener noreferrer">док</a>',
    );
    expect(sanitizeHtml('<span rel="x" target="_top">t</span>')).toBe('<span>t</span>');
  });

  it('drops style, ids and classes that reach into the app, keeps content classes', () => {
    expect(
      sanitizeHtml(
        '<p style="position:fixed;inset:0" id="root" class="task-text mantine-Button-root mf-ios is-loading">t</p>',
      ),
    ).toBe('<p class="task-text">t</p>');
    expect(sanitizeHtml('<p class="mantine-Modal-root">t</p>')).toBe('<p>t</p>');
  });

  it.each([
    ['onerror attribute', '<img src=x onerror=alert(1)>', '<img src="x">'],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['mixed-case javascript:', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['entity-encoded javascript:', '<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['javascript: with tab', '<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['data: html link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a>x</a>'],
    ['script tag', '<p>a<script>alert(1)</script>b</p>', '<p>ab</p>'],
    ['nested script', '<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
  ])('neutralises %s', (_name, input, expected) => {
    const out = sanitizeHtml(input);
    expect(out).toBe(expected);
    expectInert(out);
  });

  it.each([
    ['svg with script', '<svg><script>alert(1)</script></svg>'],
    ['svg onload', '<svg onload=alert(1)><circle r="1"/></svg>'],
    [
      'svg animate href',
      '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>',
    ],
    ['iframe', '<iframe src="javascript:alert(1)"></iframe>'],
    ['mXSS math/mglyph/style', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['mXSS form/math', '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>'],
    ['mXSS noscript title', '<noscript><p title="</noscript><img src=x onerror=alert(1)>">'],
    [
      'mXSS annotation-xml',
      '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>',
    ],
    ['nested tags', '<div><p><b><i><u><img src=1 onerror=alert(1)></u></i></b></p></div>'],
    ['object/embed', '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">'],
    ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['template', '<template><img src=x onerror=alert(1)></template>'],
    ['dom clobbering', '<img name="cookie" id="location" src="a.png">'],
  ])('neutralises %s', (_name, input) => {
    const out = sanitizeHtml(input);
    expectInert(out);
    expect(out).not.toMatch(/onerror|onload|javascript|<script|<svg|<style|name=|id=/i);
  });

  it('returns an empty string for empty input', () => {
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(null)).toBe('');
  });
});

describe('sanitizeWith', () => {
  it('re-runs until the output is stable', () => {
    const purify = vi.fn((html: string) => html.replace('<<', '<'));
    expect(sanitizeWith(purify, '<<<b>x')).toBe('<b>x');
    expect(purify).toHaveBeenCalledTimes(3);
  });

  it(`rejects content that never stabilises within ${MAX_SANITIZE_PASSES} passes`, () => {
    const purify = vi.fn((html: string) => `${html}!`);
    expect(() => sanitizeWith(purify, 'x')).toThrow(SanitizeError);
    expect(purify).toHaveBeenCalledTimes(MAX_SANITIZE_PASSES);
  });

  it('sanitizeHtmlOrEmpty turns a rejection into an empty string', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(sanitizeHtmlOrEmpty('<p>ok</p>')).toBe('<p>ok</p>');
    expect(sanitizeHtmlOrEmpty('x', (html) => `${html}!`)).toBe('');
    expect(error).toHaveBeenCalledWith(expect.any(SanitizeError));
  });
});
