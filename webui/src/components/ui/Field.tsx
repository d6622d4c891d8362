import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'
import { cx } from '../../lib/cx'

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  id?: string
  /** Extra content placed after the input inside the control row (e.g. a show/hide button). */
  addon?: ReactNode
  className?: string
  /** Marks the input invalid when the message is shown elsewhere (e.g. a form's error box). */
  invalid?: boolean
  /** Id of another element describing the input (e.g. the form's error box). */
  describedBy?: string
  ref?: Ref<HTMLInputElement>
}

/** Labelled input with optional hint and error text, linked via aria-describedby. */
export function Field({
  label,
  hint,
  error,
  id,
  addon,
  className,
  invalid = false,
  describedBy: extraDescribedBy,
  type = 'text',
  ...inputProps
}: FieldProps) {
  const autoId = useId()
  const inputId = id ?? `field-${autoId}`
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const describedBy = [hintId, errorId, extraDescribedBy].filter(Boolean).join(' ') || undefined
  const isInvalid = Boolean(error) || invalid

  return (
    <div className={cx('field', isInvalid && 'field--invalid', className)}>
      <label className="field__label" htmlFor={inputId}>
        {label}
        {inputProps.required && (
          <span className="field__required" aria-hidden="true">
            {' '}*
          </span>
        )}
      </label>
      <div className={cx('field__control', addon !== undefined && 'field__control--addon')}>
        <input
          id={inputId}
          type={type}
          className="input"
          aria-invalid={isInvalid ? true : undefined}
          aria-describedby={describedBy}
          {...inputProps}
        />
        {addon}
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  )
}

/** Alias: the same component under the name the rest of the UI may expect. */
export const Input = Field
