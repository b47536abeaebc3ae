import { describe, expect, it } from 'vitest';
import {
  applyDeviceClasses,
  detectDevice,
  deviceClasses,
  isAppShell,
  type DeviceEnvironment,
} from './device';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipadOs:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
};

const env = (over: Partial<DeviceEnvironment>): DeviceEnvironment => ({
  userAgent: UA.windows,
  platform: 'Win32',
  maxTouchPoints: 0,
  viewportWidth: 1280,
  hasTouchEvents: false,
  ...over,
});

describe('detectDevice', () => {
  it('recognises an iPhone', () => {
    const info = detectDevice(
      env({ userAgent: UA.iphone, platform: 'iPhone', maxTouchPoints: 5, viewportWidth: 390 }),
    );
    expect(info).toMatchObject({ ios: true, mac: false, touch: true, tablet: false, wideTablet: false });
  });

  it('recognises iPadOS that reports itself as a Mac with touch', () => {
    const info = detectDevice(
      env({ userAgent: UA.ipadOs, platform: 'MacIntel', maxTouchPoints: 5, viewportWidth: 1024 }),
    );
    expect(info).toMatchObject({ ios: true, mac: false, tablet: true, wideTablet: true });
  });

  it('recognises a real Mac', () => {
    const info = detectDevice(env({ userAgent: UA.mac, platform: 'MacIntel' }));
    expect(info).toMatchObject({ ios: false, mac: true, touch: false, tablet: false });
  });

  it('tells Android tablets from phones and applies the 768 px rule', () => {
    const tablet = detectDevice(
      env({ userAgent: UA.androidTablet, platform: 'Linux', maxTouchPoints: 10, viewportWidth: 800 }),
    );
    expect(tablet).toMatchObject({ android: true, tablet: true, wideTablet: true });
    const narrow = detectDevice(
      env({ userAgent: UA.androidTablet, platform: 'Linux', maxTouchPoints: 10, viewportWidth: 768 }),
    );
    expect(narrow.wideTablet).toBe(false);
    const phone = detectDevice(
      env({ userAgent: UA.androidPhone, platform: 'Linux', maxTouchPoints: 5, viewportWidth: 412 }),
    );
    expect(phone).toMatchObject({ tablet: false, wideTablet: false });
  });

  it('recognises the app shell by its user-agent marker', () => {
    expect(isAppShell(`${UA.androidTablet} AttestaApp/2.3.1`)).toBe(true);
    expect(isAppShell(UA.androidTablet)).toBe(false);
    expect(detectDevice(env({ userAgent: `${UA.iphone} AttestaApp/1.0` })).appShell).toBe(true);
  });
});

describe('device classes', () => {
  it('lists mf- classes', () => {
    const info = detectDevice(
      env({
        userAgent: `${UA.ipadOs} AttestaApp/1.0`,
        platform: 'MacIntel',
        maxTouchPoints: 5,
        viewportWidth: 1024,
      }),
    );
    expect(deviceClasses(info)).toEqual(['mf-ios', 'mf-app', 'mf-touch', 'mf-tablet', 'mf-wide-tablet']);
    expect(deviceClasses(detectDevice(env({})))).toEqual(['mf-no-touch']);
  });

  it('applies the classes on <html>, replacing stale ones and keeping others', () => {
    const root = document.documentElement;
    root.className = 'keep-me mf-ios';
    applyDeviceClasses(detectDevice(env({ userAgent: UA.mac, platform: 'MacIntel' })), root);
    expect([...root.classList].sort()).toEqual(['keep-me', 'mf-mac', 'mf-no-touch']);
    root.className = '';
  });
});
