/** Device detection (spec §1, §9): iOS, Mac, the Attesta app shell, touch and tablet. */

export const APP_SHELL_MARKER = 'AttestaApp/';
export const CLASS_PREFIX = 'mf-';
/** Tablets wider than this many CSS pixels get the touch click helper (spec §9). */
export const TABLET_MIN_WIDTH = 768;

export interface DeviceEnvironment {
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
  /** Viewport width in CSS pixels. */
  viewportWidth: number;
  /** `ontouchstart` in window: older WebViews report no maxTouchPoints. */
  hasTouchEvents: boolean;
}

export interface DeviceInfo {
  ios: boolean;
  mac: boolean;
  android: boolean;
  appShell: boolean;
  touch: boolean;
  tablet: boolean;
  /** A tablet wider than TABLET_MIN_WIDTH: where the touch click helper applies. */
  wideTablet: boolean;
}

export function readEnvironment(win: Window = window): DeviceEnvironment {
  return {
    userAgent: win.navigator.userAgent,
    platform: win.navigator.platform ?? '',
    maxTouchPoints: win.navigator.maxTouchPoints ?? 0,
    viewportWidth: win.innerWidth,
    hasTouchEvents: 'ontouchstart' in win,
  };
}

export function isAppShell(userAgent: string = navigator.userAgent): boolean {
  return userAgent.includes(APP_SHELL_MARKER);
}

export function detectDevice(env: DeviceEnvironment = readEnvironment()): DeviceInfo {
  const ua = env.userAgent;
  const touch = env.maxTouchPoints > 0 || env.hasTouchEvents;
  // iPadOS 13+ reports itself as a Mac ("Macintosh", platform MacIntel); only touch tells it apart.
  const iPadAsMac = /Mac/.test(env.platform || ua) && env.maxTouchPoints > 1;
  const ios = /iPad|iPhone|iPod/.test(ua) || /^(iPad|iPhone|iPod)/.test(env.platform) || iPadAsMac;
  const mac = !ios && (/^Mac/.test(env.platform) || /Macintosh|Mac OS X/.test(ua));
  const android = /Android/.test(ua);
  // By user agent, not by screen size: touch-screen laptops are wide and touchy, yet not tablets.
  const tablet =
    touch && (/iPad/.test(ua) || iPadAsMac || (android && !/Mobile/.test(ua)) || /Tablet/.test(ua));
  return {
    ios,
    mac,
    android,
    appShell: ua.includes(APP_SHELL_MARKER),
    touch,
    tablet,
    wideTablet: tablet && env.viewportWidth > TABLET_MIN_WIDTH,
  };
}

export function deviceClasses(info: DeviceInfo): string[] {
  const names = [
    info.ios && 'ios',
    info.mac && 'mac',
    info.android && 'android',
    info.appShell && 'app',
    info.touch ? 'touch' : 'no-touch',
    info.tablet && 'tablet',
    info.wideTablet && 'wide-tablet',
  ];
  return names.filter((name): name is string => Boolean(name)).map((name) => `${CLASS_PREFIX}${name}`);
}

/** Replaces any earlier `mf-` classes so re-running after a resize leaves no stale ones. */
export function applyDeviceClasses(info: DeviceInfo, root: HTMLElement = document.documentElement) {
  for (const name of [...root.classList]) {
    if (name.startsWith(CLASS_PREFIX)) root.classList.remove(name);
  }
  root.classList.add(...deviceClasses(info));
}
