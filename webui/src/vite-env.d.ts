/// <reference types="vite/client" />

/** Year of the build; injected by Vite `define` (same value in client and SSR bundles). */
declare const __BUILD_YEAR__: number
