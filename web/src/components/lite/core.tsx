/**
 * The light core of the participant's path (issue 24): Mantine's everyday components — text,
 * titles, stacks and groups, papers, buttons, icon buttons, alerts, loaders, inputs, checkboxes and
 * radios — as small components of our own with the subset of Mantine's props the login page, the
 * start page and the runner use, drawn with Mantine's CSS variables (core.css) so they look the
 * same. Staff screens keep Mantine. Style props (`mt`, `c`, `fw`…) are Mantine's, read the same way.
 */
import './core.css';
import {
  createContext,
  useContext,
  useId,
  useState,
  type ChangeEvent,
  type CSSProperties,
  type ElementType,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from 'react-i18next';

type Size = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
type Spacing = Size | number | string;
/** A padding that changes at Mantine's `sm` breakpoint (48em). */
type Responsive = { base: Spacing; sm?: Spacing };
const SIZES = new Set(['xs', 'sm', 'md', 'lg', 'xl']);
const isSize = (v: unknown): v is Size => typeof v === 'string' && SIZES.has(v);

/** Mantine's reading of a spacing value: a token, a number of px (in rem), or CSS as it is. */
export function space(v: Spacing | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number') return `${v / 16}rem`;
  return isSize(v) ? `var(--mantine-spacing-${v})` : v;
}
const fontSize = (v: Spacing | undefined) =>
  v === undefined
    ? undefined
    : typeof v === 'number'
      ? `${v / 16}rem`
      : isSize(v)
        ? `var(--mantine-font-size-${v})`
        : v;
const radius = (v: Spacing | undefined) =>
  v === undefined
    ? undefined
    : typeof v === 'number'
      ? `${v / 16}rem`
      : isSize(v)
        ? `var(--mantine-radius-${v})`
        : v;

/** Mantine's reading of a colour: `dimmed`, `red` (its text shade), `red.8`, `white`, or CSS. */
export function color(c: string | undefined): string | undefined {
  if (!c) return undefined;
  if (c === 'dimmed' || c === 'white' || c === 'black' || c === 'text' || c === 'anchor')
    return `var(--mantine-color-${c})`;
  if (c === 'inherit' || c.startsWith('#') || c.startsWith('var(') || c.startsWith('rgb')) return c;
  const [name, shade] = c.split('.');
  return shade ? `var(--mantine-color-${name}-${shade})` : `var(--mantine-color-${name}-text)`;
}
const background = (c: string | undefined) => {
  if (!c) return undefined;
  if (c === 'white' || c === 'black' || c === 'body') return `var(--mantine-color-${c})`;
  const [name, shade] = c.split('.');
  return shade
    ? `var(--mantine-color-${name}-${shade})`
    : c.startsWith('#') || c.startsWith('var(')
      ? c
      : `var(--mantine-color-${name}-filled)`;
};

export interface StyleProps {
  m?: Spacing;
  mt?: Spacing;
  mb?: Spacing;
  ml?: Spacing;
  mr?: Spacing;
  mx?: Spacing;
  my?: Spacing;
  p?: Spacing | Responsive;
  pt?: Spacing;
  pb?: Spacing;
  px?: Spacing;
  py?: Spacing;
  w?: Spacing;
  maw?: Spacing;
  mih?: Spacing;
  h?: Spacing;
  c?: string;
  bg?: string;
  fw?: number | string;
  fz?: Spacing;
  ta?: CSSProperties['textAlign'];
  lh?: number | string;
  ff?: 'monospace' | 'text' | 'heading' | string;
  tt?: CSSProperties['textTransform'];
  bd?: string;
  /** Shown from this breakpoint up / hidden from it up (Mantine's `visibleFrom`, `hiddenFrom`). */
  visibleFrom?: Size;
  hiddenFrom?: Size;
}

const STYLE_KEYS = new Set<string>([
  'm',
  'mt',
  'mb',
  'ml',
  'mr',
  'mx',
  'my',
  'p',
  'pt',
  'pb',
  'px',
  'py',
  'w',
  'maw',
  'mih',
  'h',
  'c',
  'bg',
  'fw',
  'fz',
  'ta',
  'lh',
  'ff',
  'tt',
  'bd',
  'visibleFrom',
  'hiddenFrom',
]);

/** Mantine's style props as an inline style, and the props left for the element. */
function splitStyle<P extends StyleProps & { style?: CSSProperties }>(props: P) {
  const s: StyleProps & { p?: Spacing | Responsive } = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    if (STYLE_KEYS.has(k)) (s as Record<string, unknown>)[k] = v;
    else if (k !== 'style') rest[k] = v;
  }
  const style: CSSProperties = {
    margin: space(s.m),
    marginTop: space(s.mt ?? s.my),
    marginBottom: space(s.mb ?? s.my),
    marginLeft: space(s.ml ?? s.mx),
    marginRight: space(s.mr ?? s.mx),
    ...(typeof s.p === 'object'
      ? ({ '--lite-p': space(s.p.base), '--lite-p-sm': space(s.p.sm ?? s.p.base) } as CSSProperties)
      : { padding: space(s.p) }),
    paddingTop: space(s.pt ?? s.py),
    paddingBottom: space(s.pb ?? s.py),
    paddingLeft: space(s.px),
    paddingRight: space(s.px),
    width: space(s.w),
    maxWidth: space(s.maw),
    minHeight: space(s.mih),
    height: space(s.h),
    color: color(s.c),
    background: background(s.bg),
    fontWeight: s.fw,
    fontSize: fontSize(s.fz),
    textAlign: s.ta,
    lineHeight: s.lh,
    fontFamily:
      s.ff === 'monospace'
        ? 'var(--mantine-font-family-monospace)'
        : s.ff === 'text'
          ? 'var(--mantine-font-family)'
          : s.ff,
    textTransform: s.tt,
    border: s.bd,
    ...props.style,
  };
  for (const k of Object.keys(style) as (keyof CSSProperties)[]) if (style[k] === undefined) delete style[k];
  const classes = cx(
    typeof s.p === 'object' && 'lite-responsive-p',
    s.visibleFrom && `lite-visible-from-${s.visibleFrom}`,
    s.hiddenFrom && `lite-hidden-from-${s.hiddenFrom}`,
  );
  return { style, rest, classes };
}

const cx = (...names: (string | false | undefined | null)[]) => names.filter(Boolean).join(' ');

/** Props of an element of our own: its HTML attributes, Mantine's style props, another tag. */
export type BoxProps = StyleProps &
  Omit<HTMLAttributes<HTMLElement>, 'color'> & {
    component?: ElementType;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any element's ref
    ref?: Ref<any>;
    /** For `component={Link}`. */
    to?: string;
    /** For `component="form"`. */
    noValidate?: boolean;
    [data: `data-${string}`]: unknown;
  };

function make(tag: ElementType, base: string, props: BoxProps, extra?: Record<string, unknown>) {
  const { component, className, ...others } = props;
  const { style, rest, classes } = splitStyle(others);
  const Tag = component ?? tag;
  return (
    <Tag
      {...rest}
      {...extra}
      className={cx(base, classes, className) || undefined}
      style={Object.keys(style).length ? style : undefined}
    />
  );
}

export function Box(props: BoxProps) {
  return make('div', '', props);
}

export function VisuallyHidden({ className, ...props }: BoxProps) {
  return make('span', 'visually-hidden', { ...props, className });
}

export interface TextProps extends BoxProps {
  size?: Size;
  span?: boolean;
  inherit?: boolean;
  truncate?: boolean | 'end';
}

export function Text({ size, span, inherit, truncate, ...props }: TextProps) {
  return make(span ? 'span' : 'p', 'lite-text', props, {
    'data-size': inherit ? undefined : (size ?? 'md'),
    'data-inherit': inherit || undefined,
    'data-truncate': truncate || undefined,
  });
}

export type TitleOrder = 1 | 2 | 3 | 4 | 5 | 6;

export function Title({ order = 1, ...props }: BoxProps & { order?: TitleOrder }) {
  return make(`h${order}`, 'lite-title', props, { 'data-order': order });
}

export function Anchor({
  size,
  underline,
  ...props
}: BoxProps & {
  size?: Size;
  underline?: 'always' | 'hover' | 'never';
  href?: string;
  target?: string;
  rel?: string;
}) {
  return make('a', 'lite-anchor', props, {
    'data-size': size,
    'data-underline': underline ?? 'hover',
  });
}

interface FlexProps extends BoxProps {
  gap?: Spacing;
  align?: CSSProperties['alignItems'];
  justify?: CSSProperties['justifyContent'];
}

export function Stack({ gap = 'md', align, justify, style, ...props }: FlexProps) {
  return make('div', 'lite-stack', {
    ...props,
    // Variables, not properties, as Mantine does: a class of the app's (unlayered) may still override them.
    style: {
      '--lite-gap': space(gap),
      '--lite-align': align,
      '--lite-justify': justify,
      ...style,
    } as CSSProperties,
  });
}

export function Group({
  gap = 'md',
  align = 'center',
  justify,
  wrap = 'wrap',
  grow,
  style,
  ...props
}: FlexProps & { wrap?: CSSProperties['flexWrap']; grow?: boolean; preventGrowOverflow?: boolean }) {
  delete (props as { preventGrowOverflow?: boolean }).preventGrowOverflow;
  return make(
    'div',
    'lite-group',
    {
      ...props,
      style: {
        '--lite-gap': space(gap),
        '--lite-align': align,
        '--lite-justify': justify,
        '--lite-wrap': wrap,
        ...style,
      } as CSSProperties,
    },
    { 'data-grow': grow || undefined },
  );
}

export function Container({ size = 'md', style, ...props }: BoxProps & { size?: Size | number }) {
  const max = typeof size === 'number' ? `${size / 16}rem` : `var(--lite-container-${size})`;
  return make('div', 'lite-container', { ...props, style: { maxWidth: max, ...style } });
}

export function SimpleGrid({
  cols = 1,
  spacing = 'md',
  style,
  ...props
}: BoxProps & { cols?: number | { base: number; sm?: number }; spacing?: Spacing }) {
  const base = typeof cols === 'number' ? cols : cols.base;
  const sm = typeof cols === 'number' ? cols : (cols.sm ?? cols.base);
  return make('div', 'lite-grid', {
    ...props,
    style: {
      '--lite-cols': base,
      '--lite-cols-sm': sm,
      '--lite-gap': space(spacing),
      ...style,
    } as CSSProperties,
  });
}

export function Paper({
  withBorder,
  radius: r,
  shadow,
  style,
  ...props
}: BoxProps & { withBorder?: boolean; radius?: Spacing; shadow?: Size }) {
  return make(
    'div',
    'lite-paper',
    { ...props, style: { '--lite-radius': radius(r), ...style } as CSSProperties },
    {
      'data-with-border': withBorder || undefined,
      'data-shadow': shadow,
    },
  );
}

type Variant = 'filled' | 'light' | 'outline' | 'subtle' | 'default' | 'transparent' | 'white';

/** The colours of a button or an icon button of `variant` in `c` (a theme colour, `red.8`). */
function variantVars(variant: Variant, c = 'attesta'): CSSProperties {
  const [name, shade] = c.split('.');
  const v = (s: string) => `var(--mantine-color-${name}-${s})`;
  let bg: string,
    hover: string,
    fg: string,
    bd = 'transparent';
  if (variant === 'default') return {};
  if (shade) {
    const base = v(shade);
    const darker = v(String(Math.min(Number(shade) + 1, 9)));
    if (variant === 'filled') [bg, hover, fg] = [base, darker, 'var(--mantine-color-white)'];
    else if (variant === 'light') [bg, hover, fg] = [v('light'), v('light-hover'), base];
    else
      [bg, hover, fg, bd] = [
        'transparent',
        v('light-hover'),
        base,
        variant === 'outline' ? base : 'transparent',
      ];
  } else if (variant === 'filled')
    [bg, hover, fg] = [v('filled'), v('filled-hover'), 'var(--mantine-color-white)'];
  else if (variant === 'light') [bg, hover, fg] = [v('light'), v('light-hover'), v('light-color')];
  else if (variant === 'outline')
    [bg, hover, fg, bd] = ['transparent', v('outline-hover'), v('outline'), v('outline')];
  else if (variant === 'subtle') [bg, hover, fg] = ['transparent', v('light-hover'), v('light-color')];
  else [bg, hover, fg] = ['transparent', 'transparent', v('light-color')];
  return { '--lite-bg': bg, '--lite-hover': hover, '--lite-color': fg, '--lite-bd': bd } as CSSProperties;
}

export interface ButtonProps extends BoxProps {
  variant?: Variant;
  color?: string;
  size?: Size | `compact-${Size}`;
  radius?: Spacing;
  loading?: boolean;
  disabled?: boolean;
  fullWidth?: boolean;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  type?: 'button' | 'submit' | 'reset';
  form?: string;
  href?: string;
  target?: string;
  rel?: string;
}

export function Button({
  variant = 'filled',
  color: c,
  size = 'sm',
  radius: r,
  loading,
  disabled,
  fullWidth,
  leftSection,
  rightSection,
  children,
  style,
  component,
  type,
  ...props
}: ButtonProps) {
  const isButton = !component || component === 'button';
  return make(
    'button',
    'lite-button',
    {
      ...props,
      component,
      style: { ...variantVars(variant, c), borderRadius: radius(r), ...style },
    },
    {
      type: isButton ? (type ?? 'button') : type,
      disabled: isButton ? disabled || loading : undefined,
      'aria-disabled': !isButton && disabled ? true : undefined,
      'data-variant': variant,
      'data-size': size,
      'data-block': fullWidth || undefined,
      'data-loading': loading || undefined,
      'data-disabled': disabled || undefined,
      'data-with-left-section': leftSection ? true : undefined,
      'data-with-right-section': rightSection ? true : undefined,
      children: (
        <>
          {loading && <span className="lite-button-loader lite-loader" data-size="xs" aria-hidden="true" />}
          <span className="lite-button-inner">
            {leftSection && <span className="lite-button-section">{leftSection}</span>}
            <span className="lite-button-label">{children}</span>
            {rightSection && <span className="lite-button-section">{rightSection}</span>}
          </span>
        </>
      ),
    },
  );
}

/** Buttons joined into one bar (Mantine's Button.Group). */
function ButtonGroup(props: BoxProps) {
  return make('div', 'lite-button-group', props);
}
Button.Group = ButtonGroup;

export function ActionIcon({
  variant = 'filled',
  color: c,
  size = 'md',
  radius: r,
  loading,
  disabled,
  style,
  children,
  type,
  ...props
}: Omit<ButtonProps, 'leftSection' | 'rightSection' | 'fullWidth' | 'size'> & { size?: Size }) {
  return make(
    'button',
    'lite-action-icon',
    { ...props, style: { ...variantVars(variant, c), borderRadius: radius(r), ...style } },
    {
      type: type ?? 'button',
      disabled: disabled || loading,
      'data-variant': variant,
      'data-size': size,
      'data-loading': loading || undefined,
      children: loading ? <span className="lite-loader" data-size="xs" aria-hidden="true" /> : children,
    },
  );
}

export function UnstyledButton({
  type,
  ...props
}: BoxProps & { type?: 'button' | 'submit'; disabled?: boolean }) {
  return make('button', 'lite-unstyled-button', props, { type: type ?? 'button' });
}

export function CloseButton(props: BoxProps & { 'aria-label': string; disabled?: boolean }) {
  return (
    <UnstyledButton className="lite-close-button" {...props}>
      <svg viewBox="0 0 15 15" width="16" height="16" aria-hidden="true">
        <path
          fill="currentColor"
          d="M11.78 4.28a.75.75 0 0 0-1.06-1.06L7.5 6.44 4.28 3.22a.75.75 0 0 0-1.06 1.06L6.44 7.5l-3.22 3.22a.75.75 0 1 0 1.06 1.06L7.5 8.56l3.22 3.22a.75.75 0 1 0 1.06-1.06L8.56 7.5z"
        />
      </svg>
    </UnstyledButton>
  );
}

/** An indeterminate progress spinner, named «Загрузка…» unless the screen names it (theme.ts did so for Mantine's). */
export function Loader({
  size = 'md',
  color: c,
  style,
  ...props
}: BoxProps & { size?: Size; color?: string; 'aria-label'?: string }) {
  const { t } = useTranslation();
  return make(
    'span',
    'lite-loader',
    {
      ...props,
      style: { ...(c ? { '--lite-loader-color': background(c) } : {}), ...style } as CSSProperties,
    },
    { role: 'progressbar', 'aria-label': props['aria-label'] ?? t('app.loading'), 'data-size': size },
  );
}

export function Alert({
  color: c = 'attesta',
  variant = 'light',
  title,
  icon,
  withCloseButton,
  closeButtonLabel,
  onClose,
  children,
  style,
  ...props
}: Omit<BoxProps, 'title'> & {
  color?: string;
  variant?: 'light' | 'filled' | 'outline';
  title?: ReactNode;
  icon?: ReactNode;
  withCloseButton?: boolean;
  closeButtonLabel?: string;
  onClose?: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  const [name] = c.split('.');
  return make(
    'div',
    'lite-alert',
    {
      ...props,
      style: {
        '--lite-alert-bg':
          variant === 'filled' ? `var(--mantine-color-${name}-filled)` : `var(--mantine-color-${name}-light)`,
        '--lite-alert-color':
          variant === 'filled' ? 'var(--mantine-color-white)' : `var(--mantine-color-${name}-light-color)`,
        '--lite-alert-bd': variant === 'outline' ? `var(--mantine-color-${name}-outline)` : 'transparent',
        ...style,
      } as CSSProperties,
    },
    {
      role: props.role ?? 'alert',
      'aria-labelledby': title ? titleId : undefined,
      'aria-describedby': children ? bodyId : undefined,
      'data-variant': variant,
      children: (
        <div className="lite-alert-wrapper">
          {icon && <div className="lite-alert-icon">{icon}</div>}
          <div className="lite-alert-body">
            {title && (
              <div className="lite-alert-title" id={titleId}>
                {title}
              </div>
            )}
            {children && (
              <div className="lite-alert-message" id={bodyId}>
                {children}
              </div>
            )}
          </div>
          {withCloseButton && (
            <CloseButton aria-label={closeButtonLabel ?? t('app.a11y.close')} onClick={onClose} />
          )}
        </div>
      ),
    },
  );
}

export function ThemeIcon({
  size = 'md',
  color: c = 'attesta',
  radius: r,
  style,
  ...props
}: BoxProps & { size?: Size; color?: string; radius?: Spacing }) {
  return make(
    'span',
    'lite-theme-icon',
    {
      ...props,
      style: { background: background(c), borderRadius: radius(r), ...style },
    },
    { 'data-size': size },
  );
}

export function Indicator({
  label,
  disabled,
  size = 10,
  color: c = 'red',
  children,
  ...props
}: BoxProps & { label?: ReactNode; disabled?: boolean; size?: number; color?: string; offset?: number }) {
  delete (props as { offset?: number }).offset;
  return make('div', 'lite-indicator', props, {
    children: (
      <>
        {children}
        {!disabled && (
          <span
            className="lite-indicator-badge"
            style={{ minWidth: `${size / 16}rem`, height: `${size / 16}rem`, background: background(c) }}
          >
            {label}
          </span>
        )}
      </>
    ),
  });
}

interface ListContextValue {
  icon?: ReactNode;
}
const ListContext = createContext<ListContextValue>({});

function ListRoot({
  size,
  spacing,
  icon,
  listStyleType,
  type,
  children,
  style,
  ...props
}: BoxProps & {
  size?: Size;
  spacing?: Spacing;
  icon?: ReactNode;
  listStyleType?: string;
  type?: 'ordered' | 'unordered';
}) {
  return (
    <ListContext.Provider value={{ icon }}>
      {make(type === 'ordered' ? 'ol' : 'ul', 'lite-list', {
        ...props,
        style: {
          '--lite-list-spacing': space(spacing) ?? '0',
          fontSize: size ? `var(--mantine-font-size-${size})` : undefined,
          listStyleType,
          ...style,
        } as CSSProperties,
        children,
      })}
    </ListContext.Provider>
  );
}

function ListItem({ icon, children, ...props }: BoxProps & { icon?: ReactNode }) {
  const shared = useContext(ListContext);
  const shown = icon ?? shared.icon;
  return make('li', 'lite-list-item', props, {
    'data-with-icon': shown ? true : undefined,
    children: shown ? (
      <>
        <span className="lite-list-icon">{shown}</span>
        <span>{children}</span>
      </>
    ) : (
      children
    ),
  });
}

export const List = Object.assign(ListRoot, { Item: ListItem });

/* ----------------------------------------------------------------------------- inputs */

interface FieldProps {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  withAsterisk?: boolean;
  size?: Size;
  className?: string;
  style?: CSSProperties;
  leftSection?: ReactNode;
  rightSection?: ReactNode;
  rightSectionWidth?: number | string;
  classNames?: { input?: string };
  resize?: CSSProperties['resize'];
}

type FieldStyle = StyleProps;

/** A field's or a group's label (a `label` or a `legend`), its required mark and its description. */
function FieldHead({
  as: Label,
  labelProps,
  label,
  required,
  description,
  descriptionId,
}: {
  as: 'label' | 'legend';
  labelProps: { htmlFor?: string; id?: string };
  label?: ReactNode;
  required?: boolean;
  description?: ReactNode;
  descriptionId?: string;
}) {
  return (
    <>
      {label && (
        <Label className="lite-field-label" {...labelProps}>
          {label}
          {required && (
            <span className="lite-field-required" aria-hidden="true">
              {' *'}
            </span>
          )}
        </Label>
      )}
      {description && (
        <p className="lite-field-description" id={descriptionId}>
          {description}
        </p>
      )}
    </>
  );
}

/** A label, its control, a description and an error, tied together for assistive technology. */
function Field({
  id,
  label,
  description,
  error,
  required,
  withAsterisk,
  className,
  style,
  size = 'sm',
  children,
  leftSection: _left,
  rightSection: _right,
  rightSectionWidth: _width,
  classNames: _classNames,
  resize: _resize,
  ...styleProps
}: FieldProps & FieldStyle & { id: string; children: (ids: { describedBy?: string }) => ReactNode }) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error && typeof error !== 'boolean' ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;
  const { style: outer } = splitStyle({ ...styleProps, style });
  return (
    <div
      className={cx('lite-field', className)}
      style={Object.keys(outer).length ? outer : undefined}
      data-size={size}
    >
      <FieldHead
        as="label"
        labelProps={{ htmlFor: id }}
        label={label}
        required={withAsterisk ?? required}
        description={description}
        descriptionId={descriptionId}
      />
      {children({ describedBy })}
      {errorId && (
        <p className="lite-field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

function pickField<P extends FieldProps & FieldStyle>(props: P) {
  const field: Record<string, unknown> = {};
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    if (
      STYLE_KEYS.has(k) ||
      [
        'label',
        'description',
        'error',
        'withAsterisk',
        'size',
        'className',
        'style',
        'leftSection',
        'rightSection',
        'rightSectionWidth',
        'classNames',
        'resize',
      ].includes(k)
    )
      field[k] = v;
    else input[k] = v;
  }
  return { field: field as FieldProps & FieldStyle, input };
}

export type TextInputProps = FieldProps &
  FieldStyle &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'color' | 'style'> & { ref?: Ref<HTMLInputElement> };

export function TextInput(props: TextInputProps) {
  const generated = useId();
  const { field, input } = pickField(props);
  const id = (props.id as string | undefined) ?? generated;
  return (
    <Field {...field} id={id} required={props.required}>
      {({ describedBy }) => (
        <div
          className="lite-input-wrapper"
          data-with-right-section={field.rightSection ? true : undefined}
          style={
            field.rightSectionWidth !== undefined
              ? ({ '--lite-section-w': space(field.rightSectionWidth) } as CSSProperties)
              : undefined
          }
        >
          <input
            type="text"
            {...(input as InputHTMLAttributes<HTMLInputElement>)}
            id={id}
            className={cx('lite-input', field.classNames?.input)}
            aria-invalid={field.error ? true : undefined}
            aria-describedby={describedBy}
            data-size={field.size ?? 'sm'}
          />
          {field.rightSection && <span className="lite-input-section">{field.rightSection}</span>}
        </div>
      )}
    </Field>
  );
}

export function PasswordInput(props: TextInputProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      type={visible ? 'text' : 'password'}
      rightSection={
        <UnstyledButton
          className="lite-password-toggle"
          aria-label={t('login.showPassword')}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
          data-testid="password-visibility"
        >
          <svg
            viewBox="0 0 24 24"
            width="18"
            height="18"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z" />
            <circle cx="12" cy="12" r="3" />
            {visible && <path d="M3 3l18 18" />}
          </svg>
        </UnstyledButton>
      }
    />
  );
}

export type TextareaProps = FieldProps &
  FieldStyle &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'size' | 'color' | 'style'> & {
    ref?: Ref<HTMLTextAreaElement>;
    autosize?: boolean;
    minRows?: number;
    maxRows?: number;
  };

export function Textarea({ autosize, minRows, maxRows, ...props }: TextareaProps) {
  const generated = useId();
  const { field, input } = pickField(props);
  const id = (props.id as string | undefined) ?? generated;
  return (
    <Field {...field} id={id} required={props.required}>
      {({ describedBy }) => (
        <textarea
          rows={minRows ?? (autosize ? 2 : undefined)}
          {...(input as TextareaHTMLAttributes<HTMLTextAreaElement>)}
          id={id}
          className={cx('lite-input lite-textarea', field.classNames?.input)}
          aria-invalid={field.error ? true : undefined}
          aria-describedby={describedBy}
          data-autosize={autosize || undefined}
          data-size={field.size ?? 'sm'}
          style={{
            resize: field.resize,
            maxHeight: maxRows ? `calc(${maxRows} * 1.55em + 2 * var(--lite-input-py))` : undefined,
          }}
        />
      )}
    </Field>
  );
}

type SelectItem = string | { value: string; label: string; disabled?: boolean };

export type NativeSelectProps = FieldProps &
  FieldStyle &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size' | 'color' | 'style'> & {
    data: readonly SelectItem[];
    ref?: Ref<HTMLSelectElement>;
  };

export function NativeSelect({ data, ...props }: NativeSelectProps) {
  const generated = useId();
  const { field, input } = pickField(props);
  const id = (props.id as string | undefined) ?? generated;
  return (
    <Field {...field} id={id} required={props.required}>
      {({ describedBy }) => (
        <div className="lite-input-wrapper lite-select-wrapper">
          <select
            {...(input as SelectHTMLAttributes<HTMLSelectElement>)}
            id={id}
            className="lite-input lite-select"
            aria-invalid={field.error ? true : undefined}
            aria-describedby={describedBy}
            data-size={field.size ?? 'sm'}
          >
            {data.map((item) => {
              const o = typeof item === 'string' ? { value: item, label: item } : item;
              return (
                <option key={o.value} value={o.value} disabled={o.disabled}>
                  {o.label}
                </option>
              );
            })}
          </select>
        </div>
      )}
    </Field>
  );
}

/* ------------------------------------------------------------------ checkboxes and radios */

interface GroupContextValue {
  type: 'checkbox' | 'radio';
  name: string;
  value: string | string[];
  toggle: (value: string, checked: boolean) => void;
}
const ChoiceGroupContext = createContext<GroupContextValue | null>(null);

interface ChoiceGroupProps<V> {
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  withAsterisk?: boolean;
  required?: boolean;
  value: V;
  onChange: (value: V) => void;
  name?: string;
  children: ReactNode;
  'data-testid'?: string;
}

function ChoiceGroup({
  type,
  label,
  description,
  error,
  withAsterisk,
  required,
  value,
  toggle,
  name,
  children,
  'data-testid': testId,
}: Omit<ChoiceGroupProps<string | string[]>, 'onChange'> & {
  type: 'checkbox' | 'radio';
  toggle: (value: string, checked: boolean) => void;
}) {
  const id = useId();
  return (
    <fieldset
      className="lite-choice-group"
      role={type === 'radio' ? 'radiogroup' : 'group'}
      aria-labelledby={label ? `${id}-l` : undefined}
      aria-describedby={[description && `${id}-d`, error && `${id}-e`].filter(Boolean).join(' ') || undefined}
      aria-required={type === 'radio' && (withAsterisk ?? required) ? true : undefined}
      data-testid={testId}
    >
      <FieldHead
        as="legend"
        labelProps={{ id: `${id}-l` }}
        label={label}
        required={withAsterisk ?? required}
        description={description}
        descriptionId={`${id}-d`}
      />
      <ChoiceGroupContext.Provider value={{ type, name: name ?? id, value, toggle }}>
        {children}
      </ChoiceGroupContext.Provider>
      {error && (
        <p className="lite-field-error" id={`${id}-e`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

interface ChoiceProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'type' | 'onChange'> {
  label?: ReactNode;
  value?: string;
  onChange?: (event: ChangeEvent<HTMLInputElement>) => void;
  ref?: Ref<HTMLInputElement>;
}

function Choice({ type, label, value, className, ...props }: ChoiceProps & { type: 'checkbox' | 'radio' }) {
  const group = useContext(ChoiceGroupContext);
  const id = useId();
  const inGroup = group && value !== undefined;
  const checked = inGroup
    ? Array.isArray(group.value)
      ? group.value.includes(value)
      : group.value === value
    : props.checked;
  return (
    <div className={cx('lite-choice', className)} data-type={type}>
      <input
        {...props}
        id={props.id ?? id}
        type={type}
        value={value}
        name={inGroup ? group.name : props.name}
        checked={checked}
        className="lite-choice-input"
        onChange={(e) => {
          if (inGroup) group.toggle(value, e.currentTarget.checked);
          props.onChange?.(e);
        }}
      />
      {label && (
        <label className="lite-choice-label" htmlFor={props.id ?? id}>
          {label}
        </label>
      )}
    </div>
  );
}

function CheckboxGroup({ value, onChange, ...props }: ChoiceGroupProps<string[]>) {
  return (
    <ChoiceGroup
      {...props}
      type="checkbox"
      value={value}
      toggle={(v, on) => onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v))}
    />
  );
}

function RadioGroup({ value, onChange, ...props }: ChoiceGroupProps<string>) {
  return <ChoiceGroup {...props} type="radio" value={value} toggle={(v) => onChange(v)} />;
}

export const Checkbox = Object.assign((props: ChoiceProps) => <Choice {...props} type="checkbox" />, {
  Group: CheckboxGroup,
});
export const Radio = Object.assign((props: ChoiceProps) => <Choice {...props} type="radio" />, {
  Group: RadioGroup,
});
