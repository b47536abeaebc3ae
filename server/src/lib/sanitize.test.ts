import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeHtml } from './sanitize.js';

describe('sanitizeHtml', () => {
  it.each([
    ['<p onclick="x()">a</p>', '<p>a</p>'],
    ['<img src="javascript:alert(1)">', '<img />'],
    ['<img src=x onerror=alert(1)>', '<img src="x" />'],
    ['<script>alert(1)</script><p>ok</p>', '<p>ok</p>'],
    ['<a href="javascript:alert(1)">x</a>', '<a rel="noopener noreferrer" target="_blank">x</a>'],
    ['<iframe src="//evil"></iframe>', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
    ['<style>body{}</style><b>b</b>', '<b>b</b>'],
    ['<form action="x"><input></form>', ''],
  ])('removes dangerous markup: %s', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it('keeps task formatting, tables, images and MathML', () => {
    const html =
      '<p>Найдите <b>x</b>: <math><mfrac><mn>1</mn><mi>x</mi></mfrac></math></p>' +
      '<table><tr><td colspan="2">1</td></tr></table><img src="/api/files/5" alt="рисунок">';
    expect(sanitizeHtml(html)).toBe(
      html.replace('<img src="/api/files/5" alt="рисунок">', '<img src="/api/files/5" alt="рисунок" />'),
    );
  });

  it('turns html into readable text', () => {
    expect(htmlToText('<p>Первый&nbsp;абзац</p><p>Второй &amp; <b>жирный</b></p>')).toBe(
      'Первый абзац\nВторой & жирный',
    );
  });
});
