import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { cx } from '../../lib/cx'

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode
  error?: string | null
  id?: string
  className?: string
  /** Marks the box invalid when the message is shown elsewhere (e.g. a form's error box). */
  invalid?: boolean
  /** Id of another element describing the box (e.g. the form's error box). */
  describedBy?: string
}

export function Checkbox({ label, error, id, className, invalid = false, describedBy, ...rest }: CheckboxProps) {
  const autoId = useId()
  const inputId = id ?? `checkbox-${autoId}`
  const errorId = error ? `${inputId}-error` : undefined
  const isInvalid = Boolean(error) || invalid
  return (
    <div className={cx('checkbox', isInvalid && 'checkbox--invalid', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="checkbox__input"
        aria-invalid={isInvalid ? true : undefined}
        aria-describedby={[errorId, describedBy].filter(Boolean).join(' ') || undefined}
        {...rest}
      />
      <label className="checkbox__label" htmlFor={inputId}>
        {label}
      </label>
      {error && (
        <p id={errorId} className="field__error checkbox__error">
          {error}
        </p>
      )}
    </div>
  )
}
