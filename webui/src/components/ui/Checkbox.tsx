import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { cx } from '../../lib/cx'

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'id'> {
  label: ReactNode
  error?: string | null
  id?: string
  className?: string
}

export function Checkbox({ label, error, id, className, ...rest }: CheckboxProps) {
  const autoId = useId()
  const inputId = id ?? `checkbox-${autoId}`
  const errorId = error ? `${inputId}-error` : undefined
  return (
    <div className={cx('checkbox', error && 'checkbox--invalid', className)}>
      <input
        id={inputId}
        type="checkbox"
        className="checkbox__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
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
