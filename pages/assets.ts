/**
 * The hosted pages' stylesheet and scripts, served from /assets/ (the CSP allows
 * no other). They
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
.choice:hover{border-color:var(--accent)}
.choice span{color:#4a5361;font-size:.9rem}
label{display:block;font-weight:600;margin:.5rem 0 .3rem}
label+.hint{margin:0 0 .4rem}
/* The drop zone: the real file input lies over all of it, unseen, and takes taps, drops and the keyboard; the zone shows its focus. */
.dropzone{position:relative;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.25rem;min-height:7rem;padding:1rem;border:2px dashed #8a94a6;border-radius:10px;background:#fff;text-align:center}
.dropzone input{position:absolute;inset:0;width:100%;height:100%;opacity:0;cursor:pointer}
.dropzone:has(input:focus-visible){outline:3px solid #1d4ed8;outline-offset:2px}
/* White behind the accent-coloured words: the accent is checked against white only. */
.dropzone:hover,.dropzone.dragging{border-color:var(--accent)}
.dropzone-text{font-weight:600;color:var(--accent)}
.dropzone-chosen{display:none;overflow-wrap:anywhere}
.dropzone:has(input:valid) .dropzone-chosen{display:block}
.upload .button{margin-top:1rem}
.progress{padding:1rem;border:1px solid #d6dae1;border-radius:10px;background:#fafbfc}
.progress label{margin-top:0}
.progress p{margin:.4rem 0 0;font-variant-numeric:tabular-nums}
progress{width:100%;height:1rem;accent-color:var(--accent)}
.trust dl{margin:0}
.trust dt{font-weight:600;margin-top:.6rem}
.trust dd{margin:0}
.trust p{margin-top:.8rem}
.form-error{color:#b42318;font-weight:600}
.notice{background:#ecfdf3;border:1px solid #067647;border-radius:8px;padding:.75rem 1rem}
.notice p{margin:0}
.notice p+p{margin-top:.3rem}
.badge{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;font-weight:600;background:#e8ecf3}
.badge.active{background:#dcfae6;color:#054f31}
.badge.needs_reauth{background:#fef0c7;color:#7a2e0e}
.badge.revoked{background:#eef0f3;color:#3b4350}
.connections,.conversations{list-style:none;padding:0;margin:0}
/* A connection is one compact row: its mark, its name and one line of figures, a chevron; the whole row is the link. */
.connection{border-top:1px solid #e4e7ec}
.connection:first-child{border-top:0}
.connection>a,.connection.revoked{display:flex;align-items:center;gap:.75rem;padding:.65rem .25rem;min-height:44px;color:inherit;text-decoration:none}
.connection>a:hover{background:#f8f9fb}
.connection>a:hover strong{text-decoration:underline}
.row-text{flex:1;min-width:0;display:flex;flex-direction:column}
.row-text strong{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.chevron{flex:none;font-size:1.6rem;line-height:1;color:#4a5361}
.provider-icon{flex:none;display:inline-flex;align-items:center;justify-content:center;width:2.25rem;height:2.25rem;border-radius:8px;color:#fff;font-weight:700;background:#4a5361}
.provider-openai{background:#0b6e55}
.provider-anthropic{background:#9a4420}
.provider-google{background:#1a56c4}
.provider-microsoft{background:#5b3fa8}
.provider-xai{background:#1b1f24}
.provider-deepseek{background:#3146b5}
.connection.revoked .provider-icon{background:#666d78}
.counts{display:grid;grid-template-columns:repeat(auto-fit,minmax(8rem,1fr));gap:.5rem;margin:.5rem 0}
.counts dt{font-size:.8rem;color:#4a5361}
.counts dd{margin:0;font-weight:600;font-size:1.4rem}
/* The whole row (title and date) is the link's tap target: the link's ::after covers it. */
.conversations li{position:relative;padding:.65rem .25rem;border-top:1px solid #e4e7ec}
.conversations li:hover{background:#f8f9fb}
.conversations a{display:block;font-weight:600;overflow-wrap:anywhere}
.conversations a::after{content:"";position:absolute;inset:0}
.conversations time{display:block}
.search label{margin-bottom:.1rem}
.search-row{display:flex;gap:.5rem}
.search-row input{flex:1;min-width:0;min-height:44px;padding:.5rem .7rem;border:1px solid #8a94a6;border-radius:8px;font:inherit}
.snippet{margin:.25rem 0 0;color:#4a5361;overflow-wrap:anywhere}
mark{background:#fef08a;color:inherit;border-radius:2px}
.pager{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-top:1rem}
.pager a{display:inline-flex;align-items:center;min-height:44px}
.conversation{margin:0 0 1rem}
.conversation h1{overflow-wrap:anywhere}
.messages{list-style:none;padding:0;margin:0;display:grid;gap:.75rem}
.message{border-radius:10px;padding:.6rem .85rem;border:1px solid #d6dae1;max-width:100%;min-width:0;background:#fff}
.message.user{background:#eef4ff;border-color:#b2ccff;margin-left:1.5rem}
.message.assistant{background:#fff;margin-right:1.5rem}
.message.tool{background:#f6f7f9;font-size:.9rem;margin-right:1.5rem}
.message.system{background:#fffaeb;border-color:#fedf89}
.message .meta{margin:0 0 .25rem;font-size:.85rem;color:#4a5361}
/* A message's Markdown. Code blocks and tables scroll sideways inside the message, never the page (min-width:0 above lets a message shrink below its widest line). */
.content{overflow-wrap:anywhere}
.content.plain{white-space:pre-wrap}
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
/* A code block: its language above it, and a copy button when the page script runs. */
.content figure.code{margin:.5rem 0;min-width:0;border:1px solid #e4e7ec;border-radius:6px;background:#f6f7f9}
.message.user figure.code{background:#fff}
.content figcaption{display:flex;justify-content:space-between;align-items:center;min-height:2rem;padding:0 0 0 .7rem;border-bottom:1px solid #e4e7ec;font-size:.8rem;color:#4a5361}
.content figure.code pre{margin:0;border:0;border-radius:0 0 6px 6px;background:none}
.copy{font:inherit;font-weight:600;border:0;border-radius:6px;background:none;color:#1d4ed8;min-height:44px;padding:0 .7rem;cursor:pointer}
.copy:hover{background:#e8ecf3}
/* A message's files: images up to the message's width, a document's text folded away, other files as links; each with a way to delete it. */
.attachments{list-style:none;padding:0;margin:.5rem 0 0;display:grid;gap:.5rem}
.attachment{min-width:0;display:flex;flex-wrap:wrap;align-items:center;column-gap:.75rem}
.attachment :is(p,details){margin:0}
.attachment>:is(.image,details){flex-basis:100%;min-width:0}
.attachment .file-name{overflow-wrap:anywhere}
.attachment .image{display:inline-block;max-width:100%}
.attachment img{display:block;max-width:100%;height:auto;max-height:24rem;border:1px solid #e4e7ec;border-radius:6px;background:#fff}
.attachment .file a{display:inline-flex;align-items:center;min-height:44px}
.attachment summary{padding:.7rem 0;cursor:pointer}
.attachment pre{margin:.25rem 0;padding:.5rem .7rem;max-height:20rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font:.85em/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f7f9;border:1px solid #e4e7ec;border-radius:6px}
.message.user .attachment pre{background:#fff}
.attachment-actions{display:flex;flex-wrap:wrap;align-items:center;gap:0 .75rem}
.attachment-actions a{display:inline-flex;align-items:center;min-height:44px}
.to-top{text-align:center;margin:1rem 0 0}
.to-top a{display:inline-flex;align-items:center;min-height:44px}
.content table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse;overflow-wrap:normal}
.content :is(th,td){border:1px solid #d6dae1;padding:.3rem .6rem;text-align:left;vertical-align:top}
.content .align-center{text-align:center}
.content .align-right{text-align:right}
.actions .button{text-align:center}
/* The app's brand: its logo leads the header; its accent colour (at least 4.5:1 on white, app update checks) on primary buttons, links in cards and the drop zone. Links styled as rows or choices keep their own colour. */
:root{--accent:#1d4ed8}
.button:not(.secondary):not(.danger){background:var(--accent)}
:where(.card) a{color:var(--accent)}
header.site{align-items:center;flex-wrap:wrap}
header.site .logo{height:2rem;width:auto;max-width:8rem;object-fit:contain}
.return-link{display:inline-flex;align-items:center;min-height:44px;font-weight:600}
footer.site p{margin:.25rem 0}
footer.site .secured{font-size:.75rem}
@media (max-width:30rem){.card{padding:1rem;border-radius:10px}h1{font-size:1.3rem}.message{padding:.55rem .7rem}.message.user{margin-left:1rem}.message.assistant,.message.tool{margin-right:0}}
`;

/**
 * Progressive enhancement of the upload form: the chosen file's name and size in
 * the drop zone, and, while the file goes up, a progress state in its place
 * (bytes, percent, then "Importing…"), scrolled into view. Without it the form
 * posts as usual; with it, the same post goes through XMLHttpRequest (fetch
 * cannot report upload progress) and the browser then opens the result page the
 * server redirected to.
 */
export const UPLOAD_SCRIPT = `
(function () {
  var form = document.querySelector('form.upload');
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var picker = form.querySelector('.picker');
  var zone = form.querySelector('.dropzone');
  var input = form.querySelector('input[type=file]');
  var chosen = form.querySelector('[data-chosen-file]');
  var progressBox = form.querySelector('.progress');
  var bar = form.querySelector('progress');
  var text = form.querySelector('[data-progress-text]');
  var error = form.querySelector('[data-upload-error]');
  var button = form.querySelector('button[type=submit]');
  var maxBytes = Number(form.getAttribute('data-max-bytes'));
  var lang = document.documentElement.lang || 'en';
  // The page's words, in the person's language.
  function say(name) { return form.getAttribute('data-text-' + name) || ''; }
  function size(bytes) {
    var mega = bytes >= 1024 * 1024;
    return new Intl.NumberFormat(lang, { style: 'unit', unit: mega ? 'megabyte' : 'kilobyte', maximumFractionDigits: mega ? 1 : 0 }).format(bytes / (mega ? 1024 * 1024 : 1024));
  }
  function show(uploading) {
    picker.hidden = uploading;
    progressBox.hidden = !uploading;
    if (uploading) progressBox.scrollIntoView({ block: 'center' });
  }
  function fail(message) {
    error.textContent = message;
    error.hidden = false;
    button.disabled = false;
    show(false);
  }
  input.addEventListener('change', function () {
    var file = input.files[0];
    if (file) chosen.textContent = file.name + ' · ' + size(file.size);
  });
  ['dragenter', 'dragover'].forEach(function (type) { zone.addEventListener(type, function () { zone.classList.add('dragging'); }); });
  ['dragleave', 'drop'].forEach(function (type) { zone.addEventListener(type, function () { zone.classList.remove('dragging'); }); });
  form.addEventListener('submit', function (event) {
    var file = input.files[0];
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
      text.textContent = percent < 100
        ? say('progress').replace('{loaded}', size(e.loaded)).replace('{total}', size(e.total)).replace('{percent}', String(percent))
        : say('reading');
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
    show(true);
    request.send(data);
  }
})();
`;

/**
 * What every page does once loaded: times, written in UTC by the server, said
 * in the browser's own time zone (the UTC time stays as the element's title),
 * and a copy button on each code block of a conversation.
 */
export const PAGE_SCRIPT = `
(function () {
  var lang = document.documentElement.lang || 'en';
  var parts = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' };
  // English keeps the unambiguous 2026-03-01 12:00 form the server writes.
  var english = new Intl.DateTimeFormat('en', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
  var other = new Intl.DateTimeFormat(lang, parts);
  function local(date) {
    if (lang !== 'en') return other.format(date);
    var p = {};
    english.formatToParts(date).forEach(function (part) { p[part.type] = part.value; });
    return p.year + '-' + p.month + '-' + p.day + ' ' + p.hour + ':' + p.minute + ' ' + p.timeZoneName;
  }
  document.querySelectorAll('time[datetime]').forEach(function (time) {
    var date = new Date(time.getAttribute('datetime'));
    if (isNaN(date.getTime())) return;
    // A relative time ("2 hr. ago") stays as it is; its title says when, locally.
    if (time.hasAttribute('data-relative')) { time.title = local(date); return; }
    time.title = time.textContent;
    time.textContent = local(date);
  });

  var messages = document.querySelector('[data-text-copy]');
  if (!messages || !navigator.clipboard) return;
  var copy = messages.getAttribute('data-text-copy');
  var copied = messages.getAttribute('data-text-copied');
  messages.querySelectorAll('figure.code').forEach(function (figure) {
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = copy;
    button.setAttribute('aria-label', copy + ' ' + figure.querySelector('figcaption').textContent);
    button.addEventListener('click', function () {
      navigator.clipboard.writeText(figure.querySelector('pre').innerText).then(function () {
        button.textContent = copied;
        setTimeout(function () { button.textContent = copy; }, 2000);
      });
    });
    figure.querySelector('figcaption').appendChild(button);
  });
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
