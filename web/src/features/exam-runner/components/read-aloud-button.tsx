/**
 * Reads a task's text aloud with the browser's speech synthesis (an accommodation, issue 14 item 2).
 * Not shown where the browser has none. The language follows the interface's.
 */
import { Button } from '../../../components/lite/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { speechSynthesisOf } from '../lib/reader-settings';

/** The words of sanitized task html, without its markup. */
export function textOfHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function ReadAloudButton({ html }: { html: string }) {
  const { t, i18n } = useTranslation();
  const synth = useMemo(() => speechSynthesisOf(), []);
  const [speaking, setSpeaking] = useState(false);
  // Leaving the task stops its reading.
  useEffect(() => () => synth?.cancel(), [synth]);
  if (!synth) return null;
  const toggle = () => {
    synth.cancel();
    if (speaking) {
      setSpeaking(false);
      return;
    }
    const utterance = new SpeechSynthesisUtterance(textOfHtml(html));
    utterance.lang = i18n.language === 'en' ? 'en-GB' : 'ru-RU';
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    setSpeaking(true);
    synth.speak(utterance);
  };
  return (
    <Button variant="default" size="sm" onClick={toggle} aria-pressed={speaking} data-testid="read-aloud">
      {speaking ? `■ ${t('runner.reader.stopReading')}` : `🔊 ${t('runner.reader.readAloud')}`}
    </Button>
  );
}
