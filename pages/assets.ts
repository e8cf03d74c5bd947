/**
 * The hosted pages' only stylesheet and only script, served from /assets/. They
 * live in modules, not files, so every runtime and the single-file binary serve
 * them without a file system.
 */
export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f5f7}
header.site,footer.site,main{max-width:44rem;margin:0 auto;padding:0 1rem}
header.site{display:flex;gap:.5rem;align-items:baseline;padding-top:1rem;padding-bottom:.5rem}
.brand{font-weight:700;font-size:1.1rem;color:#243b6b}
.for-app{color:#4a5361}
footer.site{color:#4a5361;font-size:.85rem;padding-bottom:2rem}
h1{font-size:1.5rem;line-height:1.25;margin:.2rem 0 .8rem}
h2{font-size:1.15rem;margin:1.2rem 0 .5rem}
a{color:#1d4ed8}
/* Whatever takes the focus shows it: links, buttons, the file input, and code and tables that scroll. */
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.card{background:#fff;border:1px solid #d6dae1;border-radius:12px;padding:1.25rem;margin:0 0 1rem}
.card>:first-child{margin-top:0}
.card>:last-child{margin-bottom:0}
.card.error{border-color:#b42318;border-top:4px solid #b42318}
.card.success{border-color:#067647;border-top:4px solid #067647}
.danger-zone{border-color:#f1c4c0}
.muted{color:#4a5361}
.small{font-size:.875rem}
.big{font-size:1.15rem}
.status{color:#b42318;font-weight:600;margin:0}
.steps{padding-left:1.25rem}
.steps li{margin:.35rem 0}
.button{display:inline-block;border:0;border-radius:8px;padding:.7rem 1.1rem;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;background:#1d4ed8;color:#fff;min-height:44px}
.button.secondary{background:#e8ecf3;color:#1b1f24}
.button.danger{background:#b42318;color:#fff}
.button:disabled{opacity:.6;cursor:progress}
.back{margin:0 0 .25rem}
.back a{display:inline-flex;align-items:center;min-height:44px}
.actions{display:flex;flex-wrap:wrap;gap:.75rem}
.choices{list-style:none;padding:0;display:grid;gap:.75rem}
.choice{display:flex;flex-direction:column;padding:1rem;border:1px solid #d6dae1;border-radius:10px;text-decoration:none;color:#1b1f24;min-height:44px}
.choice:hover{border-color:#1d4ed8}
.choice span{color:#4a5361;font-size:.9rem}
label{display:block;font-weight:600;margin:.5rem 0 .3rem}
label+.hint{margin:0 0 .4rem}
input[type=file]{display:block;width:100%;padding:.6rem;border:1px dashed #8a94a6;border-radius:8px;background:#fafbfc;font:inherit;cursor:pointer}
input[type=file]::file-selector-button{font:inherit;font-weight:600;border:0;border-radius:6px;padding:.45rem .9rem;margin-right:.75rem;background:#e8ecf3;color:#1b1f24;cursor:pointer}
.upload .button{margin-top:1rem}
progress{width:100%;height:1rem;accent-color:#1d4ed8}
.form-error{color:#b42318;font-weight:600}
.notice{background:#ecfdf3;border:1px solid #067647;border-radius:8px;padding:.75rem 1rem}
.badge{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;font-weight:600;background:#e8ecf3}
.badge.active{background:#dcfae6;color:#054f31}
.badge.needs_reauth{background:#fef0c7;color:#7a2e0e}
.badge.revoked{background:#eef0f3;color:#3b4350}
.connections,.conversations{list-style:none;padding:0;margin:0}
.connection{border-top:1px solid #e4e7ec;padding:.75rem 0}
.connection:first-child{border-top:0}
.connection h2{margin:0}
.connection>:last-child{margin-bottom:0}
.connection:last-child{padding-bottom:0}
.facts,.counts{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.5rem;margin:.5rem 0}
.facts dt,.counts dt{font-size:.8rem;color:#4a5361}
.facts dd,.counts dd{margin:0;font-weight:600}
.counts dd{font-size:1.4rem}
/* The whole row (title and date) is the link's tap target: the link's ::after covers it. */
.conversations li{position:relative;padding:.65rem .25rem;border-top:1px solid #e4e7ec}
.conversations li:hover{background:#f8f9fb}
.conversations a{display:block;font-weight:600;overflow-wrap:anywhere}
.conversations a::after{content:"";position:absolute;inset:0}
.conversations time{display:block}
.search label{display:block;margin-bottom:.35rem}
.search-row{display:flex;gap:.5rem}
.search-row input{flex:1;min-width:0;min-height:44px;padding:.5rem .7rem;border:1px solid #8a94a6;border-radius:8px;font:inherit}
.snippet{margin:.25rem 0 0;color:#4a5361;overflow-wrap:anywhere}
mark{background:#fef08a;color:inherit;border-radius:2px}
.pager{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-top:1rem}
.pager a{display:inline-flex;align-items:center;min-height:44px}
.messages{list-style:none;padding:0;margin:0;display:grid;gap:.75rem}
.message{border-radius:10px;padding:.6rem .85rem;border:1px solid #d6dae1;max-width:100%;min-width:0}
.message.user{background:#eef4ff;border-color:#b2ccff;margin-left:1.5rem}
.message.assistant{background:#fff;margin-right:1.5rem}
.message.tool{background:#f6f7f9;font-size:.9rem;margin-right:1.5rem}
.message.system{background:#fffaeb;border-color:#fedf89}
.message .meta{margin:0 0 .25rem;font-size:.85rem;color:#4a5361}
.reasoning{margin-top:.5rem;font-size:.9rem;color:#4a5361;border-top:1px solid #e4e7ec;padding-top:.4rem}
.reasoning summary{cursor:pointer}
/* A message's Markdown. Code blocks and tables scroll sideways inside the message, never the page (min-width:0 above lets a message shrink below its widest line). */
.content{overflow-wrap:anywhere}
.content>:first-child{margin-top:0}
.content>:last-child{margin-bottom:0}
.content :is(p,ul,ol,blockquote,pre,table){margin:.5rem 0}
.content :is(h2,h3,h4,h5,h6){font-size:1rem;margin:.8rem 0 .3rem}
.content :is(ul,ol){padding-left:1.4rem}
.content li+li{margin-top:.2rem}
.content blockquote{padding:0 .8rem;border-left:3px solid #d6dae1;color:#4a5361}
.content :is(pre,code){font:.85em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.content code{background:#f1f3f6;border-radius:4px;padding:.05rem .25rem}
.content pre{padding:.5rem .7rem;background:#f6f7f9;border:1px solid #e4e7ec;border-radius:6px;overflow-x:auto;overflow-wrap:normal}
.content pre code{font:inherit;background:none;padding:0}
.message.user pre{background:#fff}
.content table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse;overflow-wrap:normal}
.content :is(th,td){border:1px solid #d6dae1;padding:.3rem .6rem;text-align:left;vertical-align:top}
.content .align-center{text-align:center}
.content .align-right{text-align:right}
.actions .button{text-align:center}
/* The app's brand: its logo leads the header; its accent colour (at least 4.5:1 on white, app update checks) on primary buttons and links in cards. */
:root{--accent:#1d4ed8}
.button:not(.secondary):not(.danger){background:var(--accent)}
.card a:not(.button){color:var(--accent)}
header.site{align-items:center;flex-wrap:wrap}
header.site .logo{height:2rem;width:auto;max-width:8rem;object-fit:contain}
.return-link{display:inline-flex;align-items:center;min-height:44px;font-weight:600}
footer.site p{margin:.25rem 0}
footer.site .secured{font-size:.75rem}
@media (max-width:30rem){.card{padding:1rem;border-radius:10px}h1{font-size:1.3rem}.facts{grid-template-columns:1fr;gap:.25rem}.facts div{display:flex;justify-content:space-between;align-items:baseline;gap:1rem}.facts dd{text-align:right}.message.user{margin-left:.5rem}.message.assistant,.message.tool{margin-right:.5rem}}
`;

/**
 * Progressive enhancement of the upload form: a progress bar while the file goes
 * up. Without it the form posts as usual; with it, the same post goes through
 * XMLHttpRequest (fetch cannot report upload progress) and the browser then
 * opens the result page the server redirected to.
 */
export const UPLOAD_SCRIPT = `
(function () {
  var form = document.querySelector('form.upload');
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var progressBox = form.querySelector('.progress');
  var bar = form.querySelector('progress');
  var text = form.querySelector('[data-progress-text]');
  var error = form.querySelector('[data-upload-error]');
  var button = form.querySelector('button[type=submit]');
  var maxBytes = Number(form.getAttribute('data-max-bytes'));
  // The page's words, in the person's language.
  function say(name) { return form.getAttribute('data-text-' + name) || ''; }
  function fail(message) {
    error.textContent = message;
    error.hidden = false;
    button.disabled = false;
    progressBox.hidden = true;
  }
  form.addEventListener('submit', function (event) {
    var file = form.querySelector('input[type=file]').files[0];
    if (!file) return;
    event.preventDefault();
    error.hidden = true;
    if (maxBytes && file.size > maxBytes) return fail(say('too-large'));
    send(new FormData(form));
  });
  // Many imports under way: the server says 503 and when to try again, and the
  // page does so by itself, sending the file again.
  function send(data) {
    var request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.upload.addEventListener('progress', function (e) {
      if (!e.lengthComputable) return;
      var percent = Math.round((e.loaded / e.total) * 100);
      bar.value = percent;
      text.textContent = percent < 100 ? say('progress').replace('{percent}', String(percent)) : say('reading');
    });
    request.addEventListener('load', function () {
      // The import's outcome, good or bad, is a redirect to the result page. A
      // refusal before it (an expired session, a stale form) is an error page at
      // the form's own address instead: show what it says here.
      var redirected = request.responseURL && request.responseURL !== form.action;
      if (!redirected && request.status === 503) {
        var seconds = Number(request.getResponseHeader('Retry-After')) || 5;
        text.textContent = say('busy');
        return setTimeout(function () { send(data); }, seconds * 1000);
      }
      if (!redirected && request.status >= 400) {
        var page = new DOMParser().parseFromString(request.responseText, 'text/html');
        var heading = page.querySelector('h1');
        var advice = heading && heading.parentNode.querySelector('h1 + p');
        return fail((heading ? heading.textContent + '. ' : say('refused') + ' ') + (advice ? advice.textContent : ''));
      }
      window.location.assign(request.responseURL || form.action);
    });
    request.addEventListener('error', function () { fail(say('interrupted')); });
    button.disabled = true;
    bar.value = 0;
    text.textContent = say('starting');
    progressBox.hidden = false;
    request.send(data);
  }
})();
`;

/**
 * The way back to the app (pages/return-link.tsx), for a page opened with
 * window.open(): it tells the opener `{type: 'parley', status, connectionId}`,
 * posted to the returnUrl's origin only (an origin the app registered), when an
 * outcome page loads and when the person clicks "Return to …" (the popup then
 * closes itself). Without an opener the link is followed as usual.
 */
export const RETURN_SCRIPT = `
(function () {
  var opener = window.opener;
  function tell(link) {
    if (!opener || opener.closed) return false;
    var message = { type: 'parley', status: link.getAttribute('data-parley-status') };
    var connectionId = link.getAttribute('data-parley-connection-id');
    if (connectionId) message.connectionId = connectionId;
    opener.postMessage(message, link.getAttribute('data-parley-origin'));
    return true;
  }
  var links = document.querySelectorAll('a[data-parley-status]');
  for (var i = 0; i < links.length; i++) {
    (function (link) {
      if (link.hasAttribute('data-parley-announce')) tell(link);
      link.addEventListener('click', function (event) {
        if (!tell(link)) return;
        event.preventDefault();
        window.close();
        // A window the browser will not let a script close follows the link instead.
        if (!window.closed) window.location.assign(link.href);
      });
    })(links[i]);
  }
})();
`;

/** A small mark for the browser tab, so no page visit ends in a 404 for /favicon.ico. */
export const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#243b6b"/><path d="M9 8h9a6 6 0 0 1 0 12h-5v5H9zm4 4v4h5a2 2 0 0 0 0-4z" fill="#fff"/></svg>`;
