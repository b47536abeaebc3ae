/**
 * Demo html containers (interactive tasks), kept as text so they travel inside the server bundle.
 * Each speaks the runner's postMessage protocol (docs/html-containers.md).
 */

/** An interactive content package: files by their stored path (`index.html`, `bundles/…`). */
export interface DemoContainer {
  name: string;
  entry: string;
  files: Record<string, { mime: string; text: string }>;
}

const BULB_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 56">
<path d="M20 2a17 17 0 0 0-10 30.8c2.4 1.8 3.6 4.2 3.6 6.8V42h12.8v-2.4c0-2.6 1.2-5 3.6-6.8A17 17 0 0 0 20 2z" fill="#ffd43b" stroke="#845c00" stroke-width="2"/>
<rect x="13" y="44" width="14" height="4" rx="1" fill="#868e96"/><rect x="14" y="50" width="12" height="4" rx="2" fill="#868e96"/>
</svg>`;

const INDEX_HTML = `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<title>Двоичные лампочки</title>
<link rel="stylesheet" href="style.css">
<script src="bundles/app.js" defer></script>
</head>
<body>
<main>
  <p class="lead"><img src="bulb.svg" alt="" width="20" height="28">
    Каждая лампочка — один разряд двоичного числа: горит — 1, не горит — 0.
    Нажимайте на лампочки (или выбирайте их клавишей Tab и нажимайте пробел).</p>
  <div id="board" class="board" role="group" aria-label="Разряды двоичного числа, от старшего к младшему"></div>
  <p class="code">Двоичная запись: <output id="code" aria-live="polite"></output></p>
  <p id="status" class="status" hidden>Работа приостановлена: изменить ответ сейчас нельзя.</p>
</main>
</body>
</html>
`;

const STYLE_CSS = `body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #212529; background: #fff; }
main { padding: 12px 16px; }
.lead img { vertical-align: middle; }
.board { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.bit { width: 56px; padding: 6px 0 4px; border: 2px solid #adb5bd; border-radius: 8px; background: #f1f3f5;
  font: inherit; cursor: pointer; display: flex; flex-direction: column; align-items: center; gap: 2px; }
.bit .lamp { width: 30px; height: 42px; background: url(bulb.svg) center / contain no-repeat; filter: grayscale(1) opacity(.35); }
.bit[aria-pressed="true"] { border-color: #845c00; background: #fff9db; }
.bit[aria-pressed="true"] .lamp { filter: none; }
.bit:focus-visible { outline: 3px solid #1c7ed6; outline-offset: 2px; }
.bit:disabled { cursor: not-allowed; }
.weight { font-size: 12px; color: #495057; }
.code output { font: 600 20px/1 ui-monospace, monospace; letter-spacing: 2px; }
.status { color: #c92a2a; }
`;

/** The lamps: the answer is a digit sequence of `content.length` binary digits. */
const APP_JS = `(function () {
  'use strict';
  var bits = [];
  var readOnly = true;
  var board = document.getElementById('board');
  var code = document.getElementById('code');
  var status = document.getElementById('status');

  function send(message) { window.parent.postMessage(message, '*'); }
  function resize() {
    send({ type: 'attesta:resize', height: Math.ceil(document.querySelector('main').getBoundingClientRect().height) });
  }

  function render() {
    if (board.children.length !== bits.length) {
      board.textContent = '';
      bits.forEach(function (_, i) {
        var weight = Math.pow(2, bits.length - 1 - i);
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'bit';
        button.setAttribute('data-bit', String(i));
        button.setAttribute('aria-label', 'Разряд ' + weight);
        button.innerHTML = '<span class="lamp" aria-hidden="true"></span><span class="weight">' + weight + '</span>';
        button.addEventListener('click', function () { toggle(i); });
        board.appendChild(button);
      });
    }
    bits.forEach(function (bit, i) {
      board.children[i].setAttribute('aria-pressed', bit ? 'true' : 'false');
      board.children[i].disabled = readOnly;
    });
    code.textContent = bits.join('');
    status.hidden = !readOnly;
    resize();
  }

  function toggle(i) {
    if (readOnly) return;
    bits[i] = bits[i] ? 0 : 1;
    render();
    send({ type: 'attesta:answer', value: bits.join('') });
  }

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (event.source !== window.parent || !message || message.type !== 'attesta:init') return;
    var length = (message.content && message.content.length) || 8;
    var saved = typeof message.value === 'string' ? message.value : '';
    bits = [];
    for (var i = 0; i < length; i++) bits.push(saved.charAt(i) === '1' ? 1 : 0);
    readOnly = !!message.readOnly;
    render();
  });

  send({ type: 'attesta:ready' });
})();
`;

export const BINARY_LAMPS: DemoContainer = {
  name: 'Двоичные лампочки (демонстрационный интерактив)',
  entry: 'index.html',
  files: {
    'index.html': { mime: 'text/html; charset=utf-8', text: INDEX_HTML },
    'style.css': { mime: 'text/css; charset=utf-8', text: STYLE_CSS },
    'bundles/app.js': { mime: 'text/javascript; charset=utf-8', text: APP_JS },
    'bulb.svg': { mime: 'image/svg+xml', text: BULB_SVG },
  },
};
