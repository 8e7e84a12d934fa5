// The API reference page (/api/docs): Swagger UI over the server's own OpenAPI document. A
// file rather than an inline script, so that the page passes the Content-Security-Policy.
(function () {
  "use strict";
  const root = document.getElementById("swagger-ui");
  if (!root || !window.SwaggerUIBundle) return;
  window.ui = window.SwaggerUIBundle({
    url: root.dataset.openapi,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    presets: [window.SwaggerUIBundle.presets.apis],
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null, // no validity badge fetched from a third-party validator
  });
})();
