/**
 * The runner's integrity reports (lost focus, left fullscreen, hidden tab, lost connection) to
 * POST /api/monitoring/integrity: fire-and-forget, errors suppressed, at most one report of a kind
 * every 2 s and 60 a minute in all, so a flapping window cannot flood the server.
 */
import type { IntegrityEvent, IntegrityKind as Kind } from '@attesta/contract';
import { useEffect } from 'react';
import { call } from '../../../lib/call';

const SAME_KIND_MS = 2000;
const PER_MINUTE = 60;

export function useIntegrityReporter(examWorkId: number | null, enabled = true) {
  useEffect(() => {
    if (!examWorkId || !enabled) return;
    const lastByKind = new Map<Kind, number>();
    let windowStart = Date.now();
    let sent = 0;
    /** Reports that could not be sent while offline go out when the connection returns. */
    const pending: IntegrityEvent[] = [];

    const post = (event: IntegrityEvent) =>
      call('POST /api/monitoring/integrity', { body: event }, { suppressRedirect: true }).catch(
        () => undefined,
      );

    const report = (kind: Kind) => {
      const now = Date.now();
      if (now - (lastByKind.get(kind) ?? 0) < SAME_KIND_MS) return;
      if (now - windowStart > 60_000) {
        windowStart = now;
        sent = 0;
      }
      if (sent >= PER_MINUTE) return;
      lastByKind.set(kind, now);
      sent += 1;
      const at = new Date(now).toISOString();
      if (!navigator.onLine) {
        if (pending.length < 20) pending.push({ kind, at });
        return;
      }
      void post({ kind, at });
    };

    const onBlur = () => report('blur');
    const onFocus = () => report('focus');
    const onVisibility = () => report(document.hidden ? 'visibility_hidden' : 'visibility_visible');
    const onFullscreen = () => report(document.fullscreenElement ? 'fullscreen_enter' : 'fullscreen_exit');
    const onOffline = () => report('offline');
    const onOnline = () => {
      for (const event of pending.splice(0)) void post(event);
      report('online');
    };
    window.addEventListener('blur', onBlur);
    window.addEventListener('focus', onFocus);
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    return () => {
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
    };
  }, [examWorkId, enabled]);
}
