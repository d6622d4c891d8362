import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { cx } from '../../lib/cx'

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: ReactNode
  hint?: ReactNode
  error?: string | null
  id?: string
  /** Extra content placed after the input inside the control row (e.g. a show/hide button). */
  addon?: ReactNode
  className?: string
}

/** Labelled input with optional hint and error text, linked via aria-describedby. */
export function Field({ label, hint, error, id, addon, className, type = 'text', ...inputProps }: FieldProps) {
  const autoId = useId()
  const inputId = id ?? `field-${autoId}`
  const hintId = hint ? `${inputId}-hint` : undefined
  const errorId = error ? `${inputId}-error` : undefined
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined

  return (
    <div className={cx('field', error && 'field--invalid', className)}>
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
          aria-invalid={error ? true : undefined}
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
