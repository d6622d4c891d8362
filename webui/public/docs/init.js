// Starts Swagger UI on /docs. An external file, because our CSP allows no inline script.
window.addEventListener('load', function () {
  window.ui = window.SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
  })
})
