/**
 * What `GET /` answers: a page for whoever runs the server, saying what it is
 * and where to look. It shows no data and needs no login, so it says nothing
 * that is not already public: the version is on /healthz too.
 */
export function operatorPage(version: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley ${version}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/parley.css">
</head>
<body>
<header class="site"><span class="brand">Parley</span> <span class="muted">version ${version}</span></header>
<main>
<div class="card">
<h1>Parley is running</h1>
<p>This server imports people's AI-assistant conversation exports and serves them to an app's backend. It has no page of its own beyond this one: people reach it through links their app signs.</p>
<ul>
<li><a href="/healthz">/healthz</a> — whether it is up, and its version</li>
<li><a href="/openapi.json">/openapi.json</a> — the API, as OpenAPI 3.1</li>
</ul>
<p>How to run and use it: <code>README.md</code> in Parley's repository, and <code>parley --help</code> (or <code>npm run cli -- --help</code>).</p>
</div>
</main>
</body>
</html>
`;
}
