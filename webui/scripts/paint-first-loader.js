// Loads the app's scripts on a prerendered page once the page has painted. The HTML already
// reads complete, so nothing should compete with the first paint for the connection or the
// main thread: the stylesheet and the document go first, the scripts (which only add
// interactivity: hydration) right after. scripts/prerender.mjs minifies this classic script
// into /assets/ and references it as
//   <script src="/assets/loader-HASH.js" defer data-entry="/assets/index-….js"
//           data-preload="/assets/vendor-….js /assets/Page-….js"></script>
// (an external file: the CSP allows no inline script).
;(function () {
  var loader = document.currentScript
  if (!loader) return
  var entry = loader.getAttribute('data-entry')
  var preloads = (loader.getAttribute('data-preload') || '').split(' ').filter(Boolean)
  var started = false

  function append(element) {
    element.crossOrigin = 'anonymous'
    element.fetchPriority = 'low'
    document.head.appendChild(element)
  }

  function load() {
    if (started) return
    started = true
    // The whole module graph at once (as <link rel="modulepreload"> in the HTML would have
    // done), so the browser fetches it in parallel rather than import by import.
    preloads.forEach(function (href) {
      var link = document.createElement('link')
      link.rel = 'modulepreload'
      link.href = href
      append(link)
    })
    var script = document.createElement('script')
    script.type = 'module'
    script.src = entry
    append(script)
  }

  var types = typeof PerformanceObserver === 'function' ? PerformanceObserver.supportedEntryTypes || [] : []
  // Nothing to wait for in a background tab (it does not paint) or without paint timing.
  if (document.visibilityState === 'hidden' || types.indexOf('paint') < 0) return load()
  // The 'paint' entry arrives once the first contentful frame is on screen.
  new PerformanceObserver(function (list, observer) {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return
    observer.disconnect()
    setTimeout(load, 0)
  }).observe({ type: 'paint', buffered: true })
  // A page that never paints content (or a browser that never reports it) still comes alive.
  setTimeout(load, 3000)
})()
