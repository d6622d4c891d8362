import { createContext, useContext } from 'react'

export interface DashboardShell {
  /**
   * Leaves the dashboard for `/` after `clear` forgot the user (sign-out, deleted account),
   * without the shell first bouncing to /login because the user is gone.
   */
  leave: (clear: () => void | Promise<void>) => Promise<void>
}

export const DashboardShellContext = createContext<DashboardShell | null>(null)

export function useDashboardShell(): DashboardShell {
  const shell = useContext(DashboardShellContext)
  if (!shell) throw new Error('useDashboardShell must be used inside the dashboard layout')
  return shell
}
