import type { ReactNode } from 'react'
import type { ApiData } from '../../lib/use-api-data'
import { Button } from '../ui/Button'
import { ErrorBox } from '../ui/ErrorBox'
import { Spinner } from '../ui/Spinner'

export interface LoadErrorProps {
  title: string
  /** The message under the title. */
  children: ReactNode
  onRetry: () => void
  /** `dash-fallback` for a whole-frame failure; inline (in a page) by default. */
  className?: string
}

/** A red box saying what could not be loaded, and "Try again". */
export function LoadError({ title, children, onRetry, className = 'dash-fallback-inline' }: LoadErrorProps) {
  return (
    <div className={className}>
      <ErrorBox title={title}>{children}</ErrorBox>
      <Button onClick={onRetry}>Try again</Button>
    </div>
  )
}

export interface LoadStateProps<T extends object> {
  state: ApiData<T>
  /** The spinner's label, e.g. "Loading the leads". */
  loading: string
  /** The error box's title, e.g. "We could not load the leads." */
  failed: string
  children: (data: T) => ReactNode
}

/** A dashboard page's data: its spinner while loading, the error with "Try again", or `children(data)`. */
export function LoadState<T extends object>({ state, loading, failed, children }: LoadStateProps<T>) {
  if (state.error !== null) {
    return (
      <LoadError title={failed} onRetry={state.reload}>
        {state.error}
      </LoadError>
    )
  }
  if (state.data === null) {
    return (
      <div className="page-loading">
        <Spinner label={loading} size="lg" />
      </div>
    )
  }
  return children(state.data)
}
