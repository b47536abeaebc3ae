/**
 * An interactive task (html container) in an `<iframe sandbox="allow-scripts">`: no
 * `allow-same-origin`, so its scripts cannot reach the app's cookies, storage or DOM. It talks to
 * its page only through the postMessage protocol of container-protocol.ts; its answers go to
 * `onChange` like any answer input's (in the runner: the same autosave and outbox path). Shared,
 * without feature logic: the participant's runner and the admin's container and task previews
 * show containers in this same frame.
 */
import { TASK_SCHEMAS, type TaskAnswerType } from '@attesta/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { CONTAINER_HEIGHT, clampHeight, initMessage, parseContainerMessage } from './container-protocol';

export interface HtmlContainerFrameProps {
  /** The signed entry page URL from the container metadata. */
  src: string;
  /** Accessible name of the frame. */
  title: string;
  /** Id of a text describing how to answer. */
  describedBy?: string;
  answerType: TaskAnswerType;
  content: Record<string, unknown>;
  value: unknown;
  readOnly: boolean;
  onChange: (value: unknown) => void;
}

const json = (value: unknown) => JSON.stringify(value ?? null);

export function HtmlContainerFrame(props: HtmlContainerFrameProps) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState<number>(CONTAINER_HEIGHT.initial);
  // The latest props for the message handler, which stays subscribed for the frame's life.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  /** The value the container itself sent last: echoing it back would only disturb it. */
  const fromFrame = useRef<string | null>(null);

  const sendInit = useCallback(() => {
    const target = frame.current?.contentWindow;
    if (!target) return;
    const { answerType, content, value, readOnly } = latest.current;
    // An opaque-origin frame has no origin to name: '*' is the only target that reaches it.
    target.postMessage(initMessage(answerType, content, value, readOnly), '*');
  }, []);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // Only this frame's own window, and only as a sandboxed (opaque, "null") origin.
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== 'null') return;
      const message = parseContainerMessage(event.data);
      if (!message) return;
      if (message.type === 'attesta:ready') sendInit();
      else if (message.type === 'attesta:resize') setHeight(clampHeight(message.height));
      else {
        const { answerType, readOnly, onChange } = latest.current;
        if (readOnly) return;
        const parsed = TASK_SCHEMAS[answerType].value.safeParse(message.value);
        if (!parsed.success) {
          console.warn('html container: an answer of the wrong shape was ignored', parsed.error.issues);
          return;
        }
        fromFrame.current = json(parsed.data);
        onChange(parsed.data);
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [sendInit]);

  // The state changed from outside the frame (paused, a newer answer from the server): tell it.
  const valueJson = json(props.value);
  useEffect(() => {
    if (valueJson !== fromFrame.current) sendInit();
  }, [valueJson, sendInit]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else sendInit();
  }, [props.readOnly, sendInit]);

  return (
    <iframe
      ref={frame}
      src={props.src}
      title={props.title}
      aria-describedby={props.describedBy}
      sandbox="allow-scripts"
      referrerPolicy="no-referrer"
      onLoad={sendInit}
      className="html-container-frame"
      style={{ height }}
      data-testid="html-container-frame"
    />
  );
}
