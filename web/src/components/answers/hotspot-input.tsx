import { QTI_POINT_RE, type TaskContent } from '@attesta/contract';
import { ActionIcon, Alert, Button, Group, Text, TextInput, VisuallyHidden } from '../lite/core';
import { useId, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { callPath } from '../../lib/call';
import { useBundleT } from '../data-table/use-bundle-t';
import { answersBundle } from './locales';
import type { AnswerInputProps } from './types';
import './answers.css';

type HotspotContent = TaskContent<'hotspot'>;
type Area = HotspotContent['areas'][number];

/**
 * Where the picture is read from: an uploaded file of the task (the files call), or a path of
 * the package — only one without a scheme, or http(s) (never javascript:, data: and the like).
 */
export function hotspotImageUrl(image: HotspotContent['image']): string | null {
  if (image.fileId !== undefined) return callPath('GET /api/files/{id}', { id: image.fileId });
  const src = image.src?.trim();
  if (!src) return null;
  return /^https?:\/\//i.test(src) || !/^[a-z][a-z0-9+.-]*:/i.test(src) ? src : null;
}

/** The area as an SVG shape (coords as in an html <area>, pixels of the picture). */
function shapeProps(area: Area) {
  const c = area.coords;
  switch (area.shape) {
    case 'rect':
      return {
        tag: 'rect' as const,
        x: Math.min(c[0]!, c[2]!),
        y: Math.min(c[1]!, c[3]!),
        width: Math.abs(c[2]! - c[0]!),
        height: Math.abs(c[3]! - c[1]!),
      };
    case 'circle':
      return { tag: 'circle' as const, cx: c[0], cy: c[1], r: c[2] };
    case 'ellipse':
      return { tag: 'ellipse' as const, cx: c[0], cy: c[1], rx: c[2], ry: c[3] };
    case 'poly': {
      const pairs: string[] = [];
      for (let i = 0; i + 1 < c.length; i += 2) pairs.push(`${c[i]},${c[i + 1]}`);
      return { tag: 'polygon' as const, points: pairs.join(' ') };
    }
  }
}

const parsePoint = (raw: string) => {
  const [x, y] = raw.split(' ').map(Number);
  return { x: x!, y: y! };
};

/**
 * Regions of a picture to choose: the areas are SVG shapes over the picture, each a toggle
 * (Tab reaches it, Space or Enter presses it, its name is «Область N»). With `select: points`
 * one sets points by a click on the picture or by typing the coordinates; each point can be removed.
 */
export function HotspotInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'hotspot'>) {
  const { t } = useBundleT(answersBundle);
  const hintId = useId();
  const { width, height } = content.image;
  const url = hotspotImageUrl(content.image);
  const points = content.select === 'points';
  const max = content.maxChoices;
  const full = max !== undefined && value.length >= max;
  const [announcement, setAnnouncement] = useState('');

  const toggleArea = (id: string) => {
    if (disabled) return;
    const on = value.includes(id);
    if (!on && full && max !== 1) return;
    const next = on ? value.filter((x) => x !== id) : max === 1 ? [id] : [...value, id];
    onChange(content.areas.map((a) => a.id).filter((x) => next.includes(x)));
    onCommit?.();
  };
  const onAreaKey = (id: string) => (e: KeyboardEvent) => {
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      toggleArea(id);
    }
  };

  const addPoint = (x: number, y: number) => {
    if (disabled || full) return;
    const point = `${Math.round(x)} ${Math.round(y)}`;
    if (!QTI_POINT_RE.test(point)) return;
    onChange([...value, point]);
    setAnnouncement(t('answers.pointAdded', parsePoint(point)));
    onCommit?.();
  };
  const removePoint = (index: number) => {
    if (disabled) return;
    onChange(value.filter((_, i) => i !== index));
    setAnnouncement(t('answers.pointRemoved', parsePoint(value[index]!)));
    onCommit?.();
  };
  const onPictureClick = (e: MouseEvent<SVGSVGElement>) => {
    if (!points) return;
    const box = e.currentTarget.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const x = ((e.clientX - box.left) / box.width) * width;
    const y = ((e.clientY - box.top) / box.height) * height;
    addPoint(Math.min(width, Math.max(0, x)), Math.min(height, Math.max(0, y)));
  };

  const markRadius = Math.max(4, Math.min(width, height) / 60);
  const limitKey = points ? 'answers.pointsMax' : 'answers.hotspotMax';
  const reachedKey = points ? 'answers.pointsMaxReached' : 'answers.hotspotMaxReached';

  return (
    <div className="hotspot" role="group" aria-labelledby={labelledBy} aria-describedby={hintId}>
      <Text id={hintId} size="sm" c="dimmed" mb="xs">
        {t(points ? 'answers.pointsHint' : 'answers.hotspotHint')}
        {max !== undefined ? ` ${t(limitKey, { count: max })}` : ''}
        {full && (points || max !== 1) ? ` ${t(reachedKey)}` : ''}
      </Text>
      {!url && (
        <Alert color="red" variant="light" role="alert" mb="xs">
          {t('answers.noImage')}
        </Alert>
      )}
      <div className="hotspot-frame" style={{ maxWidth: width }}>
        <svg
          className="hotspot-picture"
          viewBox={`0 0 ${width} ${height}`}
          role="group"
          aria-label={content.image.alt || t('answers.image')}
          data-points={points || undefined}
          onClick={onPictureClick}
          data-testid="hotspot-picture"
        >
          {url && (
            <image href={url} x={0} y={0} width={width} height={height} preserveAspectRatio="none">
              {content.image.alt && <title>{content.image.alt}</title>}
            </image>
          )}
          {!points &&
            content.areas.map((area, i) => {
              const { tag: Shape, ...geometry } = shapeProps(area);
              const on = value.includes(area.id);
              return (
                <Shape
                  key={area.id}
                  {...geometry}
                  className="hotspot-area"
                  data-selected={on || undefined}
                  role="button"
                  tabIndex={disabled ? -1 : 0}
                  aria-pressed={on}
                  aria-disabled={disabled || (!on && full && max !== 1) || undefined}
                  aria-label={t('answers.area', { n: i + 1 })}
                  onClick={() => toggleArea(area.id)}
                  onKeyDown={onAreaKey(area.id)}
                  data-testid={`area-${area.id}`}
                />
              );
            })}
          {points &&
            value.map((raw, i) => {
              const { x, y } = parsePoint(raw);
              return (
                <circle
                  key={`${raw}-${i}`}
                  className="hotspot-point"
                  cx={x}
                  cy={y}
                  r={markRadius}
                  aria-hidden="true"
                  onClick={(e) => {
                    e.stopPropagation();
                    removePoint(i);
                  }}
                />
              );
            })}
        </svg>
      </div>
      {points && (
        <PointControls
          value={value}
          width={width}
          height={height}
          full={full}
          disabled={disabled}
          onAdd={addPoint}
          onRemove={removePoint}
        />
      )}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </div>
  );
}

/** The keyboard way to points: X and Y typed in, and the list of points set with remove buttons. */
function PointControls({
  value,
  width,
  height,
  full,
  disabled,
  onAdd,
  onRemove,
}: {
  value: string[];
  width: number;
  height: number;
  full: boolean;
  disabled?: boolean;
  onAdd: (x: number, y: number) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useBundleT(answersBundle);
  const listId = useId();
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const [error, setError] = useState<string | null>(null);
  const maxX = Math.floor(width);
  const maxY = Math.floor(height);
  const digits = (text: string) => text.replace(/\D/g, '').slice(0, 6);
  const add = () => {
    const nx = Number(x);
    const ny = Number(y);
    if (x === '' || y === '' || nx > maxX || ny > maxY) {
      setError(t('answers.badPoint'));
      return;
    }
    setError(null);
    onAdd(nx, ny);
    setX('');
    setY('');
  };
  return (
    <div className="hotspot-points">
      <Group align="flex-end" gap="sm" mt="sm" wrap="wrap">
        <TextInput
          label={t('answers.pointX', { max: maxX })}
          value={x}
          inputMode="numeric"
          onChange={(e) => setX(digits(e.currentTarget.value))}
          onKeyDown={(e) => e.key === 'Enter' && add()}
          disabled={disabled || full}
          w={150}
          data-testid="point-x"
        />
        <TextInput
          label={t('answers.pointY', { max: maxY })}
          value={y}
          inputMode="numeric"
          onChange={(e) => setY(digits(e.currentTarget.value))}
          onKeyDown={(e) => e.key === 'Enter' && add()}
          disabled={disabled || full}
          w={150}
          error={error}
          data-testid="point-y"
        />
        <Button variant="default" onClick={add} disabled={disabled || full} data-testid="add-point">
          {t('answers.addPoint')}
        </Button>
      </Group>
      <Text id={listId} fw={600} size="sm" mt="sm" mb={4}>
        {t('answers.points')}
      </Text>
      {value.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('answers.noPoints')}
        </Text>
      ) : (
        <ul className="hotspot-point-list" aria-labelledby={listId}>
          {value.map((raw, i) => {
            const p = parsePoint(raw);
            return (
              <li key={`${raw}-${i}`}>
                <span>{t('answers.point', { n: i + 1, ...p })}</span>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('answers.removePoint', { n: i + 1, ...p })}
                  disabled={disabled}
                  onClick={() => onRemove(i)}
                  data-testid={`remove-point-${i}`}
                >
                  ×
                </ActionIcon>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
