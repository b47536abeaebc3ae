import { randomBytes } from 'node:crypto';
import {
  TECH_REQUIREMENTS as REQ,
  type TechCheck,
  type TechSpecQuery,
  type TechSpecResult,
} from '@attesta/contract';

export interface BrowserInfo {
  family: 'app' | 'chrome' | 'yandex' | 'edge' | 'firefox' | 'safari' | 'ios' | 'unknown';
  label: string;
  /** Major version the rule applies to (engine version for Chromium forks, iOS version on iOS). */
  version: number | null;
  /** The minimum for this family, null when nothing is required (app shell) or unknown. */
  minimum: number | null;
}

const major = (ua: string, re: RegExp): number | null => {
  const m = re.exec(ua);
  return m ? Number(m[1]) : null;
};

/**
 * Parses the user agent just enough for the requirement rules. Order matters: Edge and Yandex
 * also say "Chrome", Chrome also says "Safari", and every browser on iOS is WebKit whatever it calls itself.
 */
export function parseBrowser(ua: string): BrowserInfo {
  const b = REQ.browsers;
  if (ua.includes(REQ.appShellMarker))
    return { family: 'app', label: 'Приложение Attesta', version: null, minimum: null };
  if (/iPhone|iPad|iPod/.test(ua)) {
    const ios = major(ua, /OS (\d+)[_.]\d/);
    if (!/CriOS|FxiOS|EdgiOS|YaBrowser|OPiOS/.test(ua)) {
      const safari = major(ua, /Version\/(\d+)/) ?? ios;
      return { family: 'safari', label: `Safari ${safari ?? '?'}`, version: safari, minimum: b.safari };
    }
    return { family: 'ios', label: `браузер на iOS ${ios ?? '?'}`, version: ios, minimum: REQ.ios };
  }
  const chrome = major(ua, /(?:Chrome|Chromium)\/(\d+)/);
  const edge = major(ua, /Edg(?:e|A)?\/(\d+)/);
  if (edge !== null) return { family: 'edge', label: `Edge ${edge}`, version: edge, minimum: b.edge };
  if (/YaBrowser\//.test(ua))
    // Yandex numbers its releases by year (23.x); the Chromium engine version is what matters.
    return {
      family: 'yandex',
      label: `Яндекс Браузер (Chromium ${chrome ?? '?'})`,
      version: chrome,
      minimum: b.chrome,
    };
  if (chrome !== null)
    return { family: 'chrome', label: `Chrome ${chrome}`, version: chrome, minimum: b.chrome };
  const firefox = major(ua, /Firefox\/(\d+)/);
  if (firefox !== null)
    return { family: 'firefox', label: `Firefox ${firefox}`, version: firefox, minimum: b.firefox };
  if (/Safari\//.test(ua)) {
    const safari = major(ua, /Version\/(\d+)/);
    return { family: 'safari', label: `Safari ${safari ?? '?'}`, version: safari, minimum: b.safari };
  }
  return { family: 'unknown', label: 'не определён', version: null, minimum: null };
}

type Check = TechCheck;
const check = (c: Omit<Check, 'warning'> & { warning?: boolean }): Check => ({ warning: false, ...c });

const BROWSER_REQUIREMENT =
  `Chrome, Яндекс Браузер, Edge или Firefox не ниже ${REQ.browsers.chrome}, ` +
  `Safari не ниже ${REQ.browsers.safari}, или приложение Attesta`;

export function browserCheck(ua: string): Check {
  const info = parseBrowser(ua);
  const base = { id: 'browser' as const, value: info.label, requirement: BROWSER_REQUIREMENT };
  if (info.family === 'app')
    return check({ ...base, ok: true, outcome: 'app', message: 'Приложение Attesta поддерживается' });
  if (info.family === 'unknown' || info.version === null)
    return check({
      ...base,
      ok: false,
      outcome: 'unknown',
      message: `Браузер не распознан. Нужен: ${BROWSER_REQUIREMENT}`,
    });
  if (info.version < info.minimum!)
    return check({
      ...base,
      ok: false,
      outcome: 'outdated',
      message: `Браузер устарел (${info.label}). Обновите его или установите другой`,
    });
  return check({ ...base, ok: true, outcome: 'ok', message: 'Браузер подходит' });
}

export function screenCheck(width?: number, height?: number): Check {
  const { minWidth, minHeight, tabletMinWidth, phoneMinSide } = REQ.screen;
  const base = {
    id: 'screen' as const,
    requirement: `не менее ${minWidth}×${minHeight} (телефон — от ${phoneMinSide} px по меньшей стороне)`,
  };
  if (width === undefined || height === undefined)
    return check({
      ...base,
      ok: false,
      value: null,
      outcome: 'unknown',
      message: 'Размер экрана не удалось определить',
    });
  const value = `${width}×${height}`;
  if (width >= minWidth && height >= minHeight)
    return check({ ...base, ok: true, value, outcome: 'ok', message: 'Размер экрана подходит' });
  // A tablet held upright is narrower than required but still usable.
  if (width >= tabletMinWidth && height >= minHeight)
    return check({
      ...base,
      ok: true,
      warning: true,
      value,
      outcome: 'narrow',
      message: 'Экран узковат: поверните планшет горизонтально, так задания будут видны лучше',
    });
  // A phone (either way up) is usable too: the runner lays the tasks out in one column.
  if (Math.min(width, height) >= phoneMinSide)
    return check({
      ...base,
      ok: true,
      warning: true,
      value,
      outcome: 'phone',
      message: 'Экран небольшой: тест пройти можно, но удобнее на планшете или компьютере',
    });
  return check({
    ...base,
    ok: false,
    value,
    outcome: 'small',
    message: 'Экран слишком мал для прохождения теста',
  });
}

const yesNo = (v: boolean | undefined) => (v === undefined ? null : v ? 'включены' : 'выключены');

export function cookiesCheck(cookies?: boolean): Check {
  return check({
    id: 'cookies',
    ok: cookies === true,
    value: yesNo(cookies),
    requirement: 'cookies включены',
    outcome: cookies ? 'ok' : 'off',
    message: cookies ? 'Cookies включены' : 'Включите cookies в настройках браузера',
  });
}

/** IndexedDB keeps unsent answers through network loss and reloads (docs/design.md §6), so both are needed. */
export function storageCheck(localStorage?: boolean, indexedDb?: boolean): Check {
  const ok = localStorage === true && indexedDb === true;
  const measured = localStorage !== undefined && indexedDb !== undefined;
  return check({
    id: 'storage',
    ok,
    value: measured ? `localStorage: ${yesNo(localStorage)}, IndexedDB: ${yesNo(indexedDb)}` : null,
    requirement: 'localStorage и IndexedDB доступны',
    outcome: ok ? 'ok' : 'off',
    message: ok
      ? 'Хранилище браузера доступно'
      : 'Хранилище браузера недоступно: выйдите из режима инкогнито или разрешите хранение данных сайта',
  });
}

/** The server clock rules (docs/design.md §3), so a wrong device clock never blocks, it only warns. */
export function clockCheck(clientTime: string | undefined, now: Date): Check {
  const base = {
    id: 'clock' as const,
    ok: true,
    requirement: `расхождение не более ${REQ.maxClockSkewMinutes} мин`,
  };
  if (!clientTime)
    return check({ ...base, value: null, outcome: 'unmeasured', message: 'Время устройства не передано' });
  const skewMinutes = Math.abs(Date.parse(clientTime) - now.getTime()) / 60_000;
  const value = `${Math.round(skewMinutes)} мин`;
  if (skewMinutes <= REQ.maxClockSkewMinutes)
    return check({ ...base, value, outcome: 'ok', message: 'Часы устройства идут верно' });
  return check({
    ...base,
    warning: true,
    value,
    outcome: 'skewed',
    message: `Часы устройства расходятся с сервером на ${value}. Время теста отсчитывается по серверу, но лучше поправить часы`,
  });
}

export function bandwidthCheck(downloadMs?: number, bytes?: number): Check {
  const base = { id: 'bandwidth' as const, requirement: `не менее ${REQ.minBandwidthMbit} Мбит/с` };
  if (!downloadMs || !bytes)
    return check({
      ...base,
      ok: true,
      value: null,
      outcome: 'unmeasured',
      message: 'Скорость соединения не измерялась',
    });
  const mbit = (bytes * 8) / (downloadMs / 1000) / 1_000_000;
  const value = `${mbit.toFixed(1)} Мбит/с`;
  return mbit >= REQ.minBandwidthMbit
    ? check({ ...base, ok: true, value, outcome: 'ok', message: 'Скорость соединения достаточная' })
    : check({
        ...base,
        ok: false,
        value,
        outcome: 'slow',
        message: 'Соединение слишком медленное для прохождения теста',
      });
}

export const PROBE_PATH = '/api/user/checkTechSpec';

/** Every check of the device against TECH_REQUIREMENTS. Pure apart from `now`. */
export function checkTechSpec(userAgent: string, q: TechSpecQuery, now: Date): TechSpecResult {
  const checks = [
    browserCheck(userAgent),
    screenCheck(q.screenWidth, q.screenHeight),
    cookiesCheck(q.cookies),
    storageCheck(q.localStorage, q.indexedDb),
    clockCheck(q.clientTime, now),
    bandwidthCheck(q.downloadMs, q.bytes),
  ];
  const bytes = REQ.probe.defaultBytes;
  return {
    ok: checks.every((c) => c.ok),
    serverTime: now.toISOString(),
    checks,
    probe: { url: `${PROBE_PATH}?probe=1&bytes=${bytes}`, bytes },
  };
}

let probeData: Buffer | null = null;

/**
 * Bytes for the bandwidth probe. Random, so compression on the way cannot flatter the speed;
 * made once and sliced, so an anonymous call costs no CPU per request.
 */
export function probeBytes(requested: number | undefined): Buffer {
  probeData ??= randomBytes(REQ.probe.maxBytes);
  const size = Math.min(Math.max(requested || REQ.probe.defaultBytes, 1), REQ.probe.maxBytes);
  return probeData.subarray(0, size);
}
