import { describe, expect, it } from 'vitest';
import { CONTAINER_LINK_TTL_MS, containerLinkSigner, withSignedLinks } from './container-links.js';

const signer = containerLinkSigner('s'.repeat(40));
const html = (text: string) =>
  withSignedLinks({ mime: 'text/html; charset=utf-8', data: Buffer.from(text) }, 'T');

describe('container link tokens', () => {
  const subject = { userId: 7, participantTestId: 12 };
  const now = new Date('2030-01-01T10:00:00Z');

  it('verify gives back the subject of a genuine token until it expires', () => {
    const { token, expiresAt } = signer.sign(3, 1, subject, now);
    expect(expiresAt.getTime()).toBe(now.getTime() + CONTAINER_LINK_TTL_MS);
    expect(signer.verify(token, 3, 1, now)).toEqual(subject);
    expect(signer.verify(token, 3, 1, new Date(expiresAt.getTime() - 1000))).toEqual(subject);
    expect(signer.verify(token, 3, 1, expiresAt)).toBeNull();
    expect(signer.verify(token, 4, 1, now)).toBeNull();
    expect(signer.verify(token, 3, 2, now)).toBeNull();
    expect(signer.verify(`${token}x`, 3, 1, now)).toBeNull();
    expect(containerLinkSigner('t'.repeat(40)).verify(token, 3, 1, now)).toBeNull();
  });

  it('staff tokens carry no participant test', () => {
    const { token } = signer.sign(3, 1, { userId: 9, participantTestId: null }, now);
    expect(token.split('.')[1]).toBe('0');
    expect(signer.verify(token, 3, 1, now)).toEqual({ userId: 9, participantTestId: null });
  });
});

describe('signed relative links', () => {
  it('signs relative src/href/poster/srcset and css urls, keeping queries and fragments', () => {
    expect(html('<img src=a.png><video poster="p.jpg"></video>').data.toString()).toBe(
      '<img src=a.png?sig=T><video poster="p.jpg?sig=T"></video>',
    );
    expect(html('<a href="./b.html?x=1#y">b</a>').data.toString()).toBe(
      '<a href="./b.html?x=1&sig=T#y">b</a>',
    );
    expect(html('<div style="background:url(\'bg.png\')"></div>').data.toString()).toBe(
      '<div style="background:url(\'bg.png?sig=T\')"></div>',
    );
    expect(html('<svg><image xlink:href="i.svg"/></svg>').data.toString()).toBe(
      '<svg><image xlink:href="i.svg?sig=T"/></svg>',
    );
  });

  it('leaves absolute, root, protocol-relative, fragment, data and script links alone', () => {
    for (const link of [
      'https://x.org/a.js',
      '/api/files/1',
      '//cdn.example/a.js',
      '#part',
      '?q=1',
      'data:image/png;base64,AA==',
      'javascript:void(0)',
      'mailto:a@b.c',
    ])
      expect(html(`<a href="${link}">x</a>`).data.toString(), link).toBe(`<a href="${link}">x</a>`);
  });

  it('rewrites only html and css; other types are served as stored', () => {
    const js = { mime: 'text/javascript', data: Buffer.from('img.src="a.png"') };
    expect(withSignedLinks(js, 'T')).toBe(js);
    expect(
      withSignedLinks({ mime: 'text/css', data: Buffer.from('a{b:url(c.png)}') }, 'T').data.toString(),
    ).toBe('a{b:url(c.png?sig=T)}');
  });
});
