import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import { detectFile } from './parsers/index.js';
import { ImportRefusal } from './parsers/types.js';
import { checkMedia, sanitizeSvg } from './safety/media.js';
import { parseXmlSafely, rootElementName } from './safety/xml.js';
import { openSafePackage, resolvePackagePath, ZIP_LIMITS } from './safety/zip.js';
import { MANIFEST, PNG, rawZip } from './test-support.js';

const refusal = async (promise: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof promise === 'function' ? promise() : promise);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportRefusal);
    return (error as ImportRefusal).code;
  }
  throw new Error('not refused');
};

describe('zip safety', () => {
  it('opens a sound package: files only, names normalised, bytes intact', async () => {
    const zip = new AdmZip();
    zip.addFile('imsmanifest.xml', Buffer.from(MANIFEST));
    zip.addFile('items/', Buffer.alloc(0));
    zip.addFile('items/./q1.xml', Buffer.from('<assessmentItem/>'));
    zip.addFile('images/a.png', PNG);
    const pkg = await openSafePackage(zip.toBuffer());
    expect([...pkg.paths].sort()).toEqual(['images/a.png', 'imsmanifest.xml', 'items/q1.xml']);
    expect(pkg.read('images/a.png').equals(PNG)).toBe(true);
    expect(pkg.readText('items/q1.xml')).toBe('<assessmentItem/>');
    expect(pkg.resolve('items/q1.xml', '../images/a.png')).toBe('images/a.png');
    expect(await refusal(() => pkg.read('nope.png'))).toBe('package_unsafe');
  });

  it('refuses a zip bomb by its compression ratio, while inflating when the header lies', async () => {
    const zeros = Buffer.alloc(20 * 1024 * 1024);
    // Honest headers: refused before inflating anything.
    expect(await refusal(openSafePackage(rawZip([{ name: 'bomb.bin', data: zeros }])))).toBe(
      'package_too_large',
    );
    // Lying headers (claims 100 bytes): refused while inflating, after at most one chunk.
    expect(
      await refusal(openSafePackage(rawZip([{ name: 'bomb.bin', data: zeros, declaredSize: 100 }]))),
    ).toBe('package_too_large');
    // Lying about a size that passes the ratio: the inflated bytes are still counted.
    const limits = { ...ZIP_LIMITS, maxEntryBytes: 1024 * 1024, maxRatio: 1e9 };
    expect(
      await refusal(openSafePackage(rawZip([{ name: 'a.bin', data: zeros, declaredSize: 1000 }]), limits)),
    ).toBe('package_too_large');
  });

  it('refuses too many entries, too many bytes in all, or one entry too large', async () => {
    const many = rawZip(
      Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from('x') })),
    );
    expect(await refusal(openSafePackage(many, { ...ZIP_LIMITS, maxEntries: 10 }))).toBe('package_too_large');
    const two = rawZip([
      { name: 'a.bin', data: Buffer.alloc(600) },
      { name: 'b.bin', data: Buffer.alloc(600) },
    ]);
    expect(await refusal(openSafePackage(two, { ...ZIP_LIMITS, maxTotalBytes: 1000 }))).toBe(
      'package_too_large',
    );
    expect(await refusal(openSafePackage(two, { ...ZIP_LIMITS, maxEntryBytes: 500 }))).toBe(
      'package_too_large',
    );
  });

  it('refuses path traversal, absolute names, backslashes, duplicates', async () => {
    for (const name of ['../evil.txt', 'a/../../evil.txt', '/etc/passwd', 'C:/x.txt', '..\\evil.txt']) {
      const code = await refusal(openSafePackage(rawZip([{ name, data: Buffer.from('x') }])));
      expect([name, code]).toEqual([name, 'package_unsafe']);
    }
    const dup = rawZip([
      { name: 'a.txt', data: Buffer.from('1') },
      { name: './a.txt', data: Buffer.from('2') },
    ]);
    expect(await refusal(openSafePackage(dup))).toBe('package_unsafe');
  });

  it('refuses symbolic links, encrypted entries, damaged data and what is not a zip', async () => {
    const link = rawZip([{ name: 'link', data: Buffer.from('/etc/passwd'), method: 0, unixMode: 0o120777 }]);
    expect(await refusal(openSafePackage(link))).toBe('package_unsafe');
    const regular = rawZip([{ name: 'ok.txt', data: Buffer.from('fine'), unixMode: 0o100644 }]);
    expect((await openSafePackage(regular)).readText('ok.txt')).toBe('fine');
    const encrypted = rawZip([{ name: 'secret.txt', data: Buffer.from('x'), flags: 1 }]);
    expect(await refusal(openSafePackage(encrypted))).toBe('package_unsafe');
    const damaged = rawZip([{ name: 'a.txt', data: Buffer.from('hello world'), method: 0 }]);
    damaged[30 + 'a.txt'.length] = 0x48; // 'h' → 'H': the CRC no longer matches
    expect(await refusal(openSafePackage(damaged))).toBe('package_unsafe');
    expect(await refusal(openSafePackage(Buffer.from('PK\u0003\u0004 not really')))).toBe('package_unsafe');
  });

  it('resolves references only inside the package', () => {
    expect(resolvePackagePath('items/q.xml', 'img/a%20b.png')).toBe('items/img/a b.png');
    expect(resolvePackagePath('items/q.xml', './a.png?x=1#y')).toBe('items/a.png');
    for (const ref of [
      '../../x.png',
      '/etc/passwd',
      'http://evil/x.png',
      'data:image/png;base64,xx',
      'a\\b.png',
      '',
    ])
      expect(resolvePackagePath('items/q.xml', ref)).toBeNull();
  });
});

describe('xml safety', () => {
  it('refuses DOCTYPE and ENTITY (XXE, billion laughs) before parsing', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><quiz>&lol2;</quiz>';
    const xxe = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><quiz>&e;</quiz>';
    for (const xml of [laughs, xxe]) {
      expect(await refusal(() => parseXmlSafely(xml, 'a.xml'))).toBe('xml_malformed');
      expect(await refusal(() => rootElementName(xml, 'a.xml'))).toBe('xml_malformed');
    }
  });

  it('refuses too deep nesting, malformed XML and encodings it cannot read; reads legacy ones', async () => {
    const deep = `${'<a>'.repeat(200)}x${'</a>'.repeat(200)}`;
    expect(await refusal(() => parseXmlSafely(deep, 'deep.xml'))).toBe('xml_malformed');
    expect(await refusal(() => parseXmlSafely('<quiz><a></quiz>', 'bad.xml'))).toBe('xml_malformed');
    const declared = (encoding: string, body: Buffer) =>
      Buffer.concat([
        Buffer.from(`<?xml version="1.0" encoding="${encoding}"?><quiz>`),
        body,
        Buffer.from('</quiz>'),
      ]);
    // "Да" in windows-1251.
    expect(parseXmlSafely(declared('windows-1251', Buffer.from([0xc4, 0xe0])), 'w.xml')).toEqual({
      quiz: 'Да',
    });
    expect(await refusal(() => parseXmlSafely(declared('x-nobody-knows', Buffer.from('a')), 'x.xml'))).toBe(
      'xml_encoding',
    );
    expect(await refusal(() => parseXmlSafely(declared('UTF-8', Buffer.from([0xc4, 0xe0])), 'u.xml'))).toBe(
      'xml_encoding',
    );
    expect(parseXmlSafely('\ufeff<quiz><q>1 &lt; 2</q></quiz>', 'ok.xml')).toEqual({ quiz: { q: '1 < 2' } });
  });

  it('finds the root element past the declaration and comments', () => {
    expect(rootElementName('<?xml version="1.0"?>\n<!-- x --><qti-assessment-item a="1">', 'a')).toBe(
      'qti-assessment-item',
    );
    expect(rootElementName('<ns:quiz/>', 'a')).toBe('ns:quiz');
    expect(rootElementName('just text', 'a')).toBeNull();
  });
});

describe('file detection', () => {
  it('picks the parser by file: package, Moodle XML, QTI XML, GIFT; refuses the rest', async () => {
    const pkg = rawZip([{ name: 'imsmanifest.xml', data: Buffer.from(MANIFEST) }]);
    expect((await detectFile('p.zip', pkg)).key).toBe('qti');
    expect((await detectFile('m.xml', Buffer.from('<?xml version="1.0"?><quiz/>'))).key).toBe('moodle');
    expect((await detectFile('i.xml', Buffer.from('<assessmentItem/>'))).key).toBe('qti');
    expect((await detectFile('i.xml', Buffer.from('<qti-assessment-test/>'))).key).toBe('qti');
    expect((await detectFile('q.gift', Buffer.from('::Q1:: 2+2 {=4}'))).key).toBe('gift');
    expect((await detectFile('q.txt', Buffer.from('::Q1:: 2+2 {=4}'))).key).toBe('gift');
    expect(await refusal(detectFile('n.zip', rawZip([{ name: 'a.txt', data: Buffer.from('x') }])))).toBe(
      'unsupported_format',
    );
    expect(await refusal(detectFile('h.xml', Buffer.from('<html/>')))).toBe('unsupported_format');
    expect(await refusal(detectFile('a.doc', Buffer.from('hello')))).toBe('unsupported_format');
  });
});

describe('media', () => {
  it('keeps images and PDF by their bytes; refuses the rest with a reason', () => {
    const png = checkMedia(PNG, 'images/photo.jpg');
    expect(png).toMatchObject({ ok: true, media: { name: 'photo.png', mime: 'image/png' } });
    expect(checkMedia(Buffer.from('MZ\x90\x00'), 'evil.png')).toMatchObject({ ok: false });
    expect(checkMedia(Buffer.alloc(0), 'e.png')).toMatchObject({ ok: false });
  });

  it('sanitises SVG: no scripts, handlers, foreign objects or external references', () => {
    const svg =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">' +
      '<script>alert(2)</script><foreignObject><iframe src="https://evil"/></foreignObject>' +
      '<a href="javascript:alert(3)"><text>link</text></a><use href="https://evil/x.svg#a"/><use href="#ok"/>' +
      '<rect width="5" height="5" style="fill:url(https://evil/t)" fill="url(#g)"/><animate attributeName="href" to="javascript:alert(4)"/></svg>';
    const clean = sanitizeSvg(svg);
    expect(clean).toMatch(/^<svg[\s>]/);
    expect(clean).toContain('viewBox="0 0 10 10"');
    expect(clean).toContain('href="#ok"');
    expect(clean).toContain('fill="url(#g)"');
    for (const bad of [
      'script',
      'alert',
      'onload',
      'foreignObject',
      'iframe',
      'javascript',
      'evil',
      'ENTITY',
      'animate',
    ])
      expect([bad, clean.includes(bad)]).toEqual([bad, false]);
    const checked = checkMedia(Buffer.from(svg), 'pic.svg');
    expect(checked).toMatchObject({ ok: true, media: { mime: 'image/svg+xml', name: 'pic.svg' } });
  });

  it('sanitises html media with the server sanitizer', () => {
    const checked = checkMedia(Buffer.from('<p onclick="x()">Hi<script>alert(1)</script></p>'), 'page.html');
    expect(checked).toMatchObject({ ok: true, media: { mime: 'text/html' } });
    const text = checked.ok ? checked.media.data.toString() : '';
    expect(text).toBe('<p>Hi</p>');
  });
});
