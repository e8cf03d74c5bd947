/**
 * Progressive enhancement of the upload form: the chosen file's name and size in
 * the drop zone, and, while the file goes up, a progress state in its place
 * (bytes, percent, then "Importing…"), scrolled into view. Without it the form
 * posts as usual. With it, the file goes to /connect/uploads in chunks (tus,
 * through tus-js-client, bundled in): a dropped connection is retried, and
 * resumed from the bytes the server has once the browser is back online; after a
 * reload, or coming back later, the page shows how far the upload got, and the
 * same file chosen again continues it. The finished upload is then imported
 * (the form's own address with `upload=<id>`) and the browser opens the result
 * page the server redirected to — unless the file turned out to be another
 * service's export: then the page offers to import the same upload as that
 * service's, so the person does not pick it again. A browser tus cannot serve
 * sends the whole file in one request, as before.
 */
import { defaultOptions, isSupported, type PreviousUpload, Upload } from 'tus-js-client';

/**
 * Each PATCH's bytes: small enough for the proxies in front of a server (many
 * refuse bodies of 100 MB) and for a phone to re-send after a drop, large enough
 * that the requests' overhead stays small.
 */
const CHUNK_BYTES = 16 * 1024 * 1024;
/** Waits between tries of a failed request while online; then the person is asked to try again. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000, 60000];
/** The uploads whose import was sent, so that a reload during the import carries on with it. */
const IMPORTING_KEY = 'parley-importing';
const CSRF_HEADER = 'Parley-CSRF';

const form = document.querySelector<HTMLFormElement>('form.upload');
if (form) sendTimeZone(form);
if (form && 'XMLHttpRequest' in window && 'FormData' in window) enhance(form);

/** The browser's zone, for exports whose times have none (Duck.ai): without the script they are read as UTC. */
function sendTimeZone(form: HTMLFormElement): void {
  const field = form.querySelector<HTMLInputElement>('input[name=timeZone]');
  if (field) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Local storage, where the browser allows it (a private window may not). */
function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** The form's parts are the server's markup (pages/connect-pages.tsx): each is there. */
function enhance(form: HTMLFormElement): void {
  const picker = form.querySelector<HTMLElement>('.picker')!;
  const zone = form.querySelector<HTMLElement>('.dropzone')!;
  const input = form.querySelector<HTMLInputElement>('input[type=file]')!;
  const chosen = form.querySelector<HTMLElement>('[data-chosen-file]')!;
  const progressBox = form.querySelector<HTMLElement>('.progress')!;
  const bar = form.querySelector('progress')!;
  const text = form.querySelector<HTMLElement>('[data-progress-text]')!;
  const error = form.querySelector<HTMLElement>('[data-upload-error]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  const csrf = form.querySelector<HTMLInputElement>('input[name=csrf]')!.value;
  const maxBytes = Number(form.getAttribute('data-max-bytes'));
  const uploads = form.getAttribute('data-uploads');
  const provider = form.getAttribute('data-provider') || '';
  const endpoint = uploads && isSupported ? new URL(uploads, window.location.href).href : undefined;
  const lang = document.documentElement.lang || 'en';
  // The page's words, in the person's language.
  const say = (name: string) => form.getAttribute(`data-text-${name}`) || '';
  const size = (bytes: number) => {
    const mega = bytes >= 1024 * 1024;
    return new Intl.NumberFormat(lang, {
      style: 'unit',
      unit: mega ? 'megabyte' : 'kilobyte',
      maximumFractionDigits: mega ? 1 : 0,
    }).format(bytes / (mega ? 1024 * 1024 : 1024));
  };
  const show = (uploading: boolean) => {
    picker.hidden = uploading;
    progressBox.hidden = !uploading;
    if (uploading) progressBox.scrollIntoView({ block: 'center' });
  };
  const fail = (message: string) => {
    error.textContent = message;
    error.hidden = false;
    button.disabled = false;
    show(false);
  };
  /** The one bar: the bytes the server has, then (no value: under way) the import. */
  // Said once: a screen reader reads each change of the live region.
  const saying = (words: string) => {
    if (text.textContent !== words) text.textContent = words;
  };
  const showBytes = (loaded: number, total: number) => {
    const percent = total ? Math.floor((loaded / total) * 100) : 0;
    bar.value = percent;
    saying(
      loaded < total
        ? say('progress')
            .replace('{loaded}', size(loaded))
            .replace('{total}', size(total))
            .replace('{percent}', String(percent))
        : say('reading'),
    );
  };
  const showImporting = () => {
    bar.removeAttribute('value');
    saying(say('reading'));
  };
  const starting = () => {
    error.replaceChildren();
    error.hidden = true;
    button.disabled = true;
    bar.value = 0;
    saying(say('starting'));
    show(true);
  };

  /** An upload of an earlier visit that the person may continue by choosing the same file. */
  let unfinished: { name: string; size: number } | undefined;
  /**
   * The files of one export (Claude's come as several zips), gathered over
   * each choice: a phone's picker may take one file at a time.
   */
  const picked: File[] = [];

  input.addEventListener('change', () => {
    for (const file of Array.from(input.files ?? []))
      if (!picked.some((other) => other.name === file.name && other.size === file.size)) picked.push(file);
    const [first] = picked;
    if (!first) return;
    const total = picked.reduce((sum, file) => sum + file.size, 0);
    chosen.textContent =
      picked.length === 1
        ? `${first.name} · ${size(total)}`
        : `${picked.map((file) => file.name).join(', ')} · ${size(total)}`;
    // The file of the interrupted upload, chosen again: it continues without another click.
    if (
      endpoint &&
      unfinished &&
      picked.length === 1 &&
      unfinished.name === first.name &&
      unfinished.size === first.size
    )
      upload(picked);
  });
  for (const type of ['dragenter', 'dragover']) zone.addEventListener(type, () => zone.classList.add('dragging'));
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('dragging'));
  form.addEventListener('submit', (event) => {
    if (picked.length === 0) return;
    event.preventDefault();
    error.hidden = true;
    if (maxBytes && picked.some((file) => file.size > maxBytes)) return fail(say('too-large'));
    if (endpoint) return upload(picked);
    const data = new FormData(form);
    data.delete('file');
    for (const file of picked) data.append('file', file);
    send(form.action, data, true);
  });

  /** A refusal's page as one sentence: its heading, then its advice. */
  const sayRefusal = (page: Document) => {
    const heading = page.querySelector('h1');
    const advice = heading?.parentNode?.querySelector('h1 + p');
    return (heading ? `${heading.textContent}. ` : `${say('refused')} `) + (advice ? advice.textContent : '');
  };

  /** The refusal said, and a button that sends `data` again, to `query` of the service the file is from. */
  const offerAnother = (page: Document, offer: HTMLAnchorElement, data: FormData, query: string) => {
    fail(sayRefusal(page));
    const again = document.createElement('button');
    again.type = 'button';
    again.className = 'button';
    again.textContent = offer.textContent;
    again.addEventListener('click', () => {
      form.setAttribute('action', offer.getAttribute('href')!);
      error.hidden = true;
      send(form.action + query, data, query === '');
    });
    error.append(' ', again);
  };

  // Many imports under way: the server says 503 and when to try again, and the
  // page does so by itself, sending the same request again. `withFile`: the
  // file is in `data` (no resumable upload), and its bytes are the bar.
  function send(url: string, data: FormData, withFile: boolean): void {
    const query = url.slice(form.action.length);
    const request = new XMLHttpRequest();
    request.open('POST', url);
    if (withFile)
      request.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) showBytes(e.loaded, e.total);
      });
    request.addEventListener('load', () => {
      // The import's outcome, good or bad, is a redirect to the result page. A
      // refusal before it (an expired session, a stale form) is an error page at
      // the form's own address instead: show what it says here.
      const redirected = request.responseURL && new URL(request.responseURL).pathname !== new URL(url).pathname;
      if (!redirected && request.status === 503) {
        const seconds = Number(request.getResponseHeader('Retry-After')) || 5;
        saying(say('busy'));
        setTimeout(() => send(url, data, withFile), seconds * 1000);
        return;
      }
      // The same uploads' import, sent before a reload, is still under way: once it
      // ends (the uploads gone) carryOn shows its result.
      if (!redirected && request.status === 409 && request.getResponseHeader('Retry-After')) {
        const seconds = Number(request.getResponseHeader('Retry-After'));
        setTimeout(() => carryOn().catch(() => fail(say('interrupted'))), seconds * 1000);
        return;
      }
      storage()?.removeItem(IMPORTING_KEY);
      if (request.status >= 400) {
        const page = new DOMParser().parseFromString(request.responseText, 'text/html');
        if (!redirected) return fail(sayRefusal(page));
        // A file of another service than the one chosen: one click sends the same file as that one's.
        const offer = page.querySelector<HTMLAnchorElement>('a[data-import-as]');
        if (offer) return offerAnother(page, offer, data, query);
      }
      window.location.assign(request.responseURL || form.action);
    });
    request.addEventListener('error', () => fail(say('interrupted')));
    if (withFile) starting();
    else showImporting();
    request.send(data);
  }

  /** Imports the finished uploads at `uploadUrls`, the files of one export: the form's fields, without the files. */
  function importUploads(uploadUrls: string[]): void {
    storage()?.setItem(IMPORTING_KEY, JSON.stringify({ uploadUrls, action: form.action }));
    const data = new FormData(form);
    data.delete('file');
    const ids = uploadUrls.map((url) => `upload=${encodeURIComponent(url.slice(url.lastIndexOf('/') + 1))}`);
    send(`${form.action}?${ids.join('&')}`, data, false);
  }

  /** Sends the files one after the other, each as `sendFile` does; then imports them together. */
  function upload(files: File[]): void {
    unfinished = undefined;
    starting();
    const total = files.reduce((sum, file) => sum + file.size, 0);
    const uploadUrls: string[] = [];
    const next = (sent: number) => {
      const file = files[uploadUrls.length];
      if (!file) return importUploads(uploadUrls);
      sendFile(
        file,
        (loaded) => showBytes(sent + loaded, total),
        (url) => {
          uploadUrls.push(url);
          next(sent + file.size);
        },
      );
    };
    next(0);
  }

  /** Sends `file` in chunks, continuing an upload of the same file this browser began; `done` with its address. */
  function sendFile(file: File, progress: (loaded: number) => void, done: (uploadUrl: string) => void): void {
    const task: Upload = new Upload(file, {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      headers: { [CSRF_HEADER]: csrf },
      metadata: { filename: file.name, provider },
      // Its address is kept with the file's fingerprint (name, type, size, date) until the last byte is in.
      removeFingerprintOnSuccess: true,
      onProgress: (loaded) => progress(loaded),
      onShouldRetry: (failure) => {
        const status = failure.originalResponse ? failure.originalResponse.getStatus() : 0;
        const retry = (status < 400 || status === 409 || status === 423) && navigator.onLine;
        if (retry) saying(say('reconnecting'));
        return retry;
      },
      onError: (failure) => {
        // Offline: continued, from what the server has, once the browser is back online.
        if (!navigator.onLine) {
          saying(say('reconnecting'));
          window.addEventListener('online', () => task.start(), { once: true });
          return;
        }
        // Refused (an ended session, a file too large): the server's page says why.
        const response = 'originalResponse' in failure ? failure.originalResponse : null;
        if (response && response.getStatus() >= 400)
          return fail(sayRefusal(new DOMParser().parseFromString(response.getBody(), 'text/html')));
        fail(say('interrupted'));
      },
      onSuccess: () => done(task.url!),
    });
    task.findPreviousUploads().then((previous) => {
      if (previous[0]) task.resumeFromPreviousUpload(previous[0]);
      task.start();
    });
  }

  /** What the server has of an upload: its offset and length, or undefined once it is gone. */
  async function serverHas(uploadUrl: string): Promise<{ offset: number; length: number } | undefined> {
    const response = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', [CSRF_HEADER]: csrf },
    });
    if (!response.ok) return undefined;
    return {
      offset: Number(response.headers.get('Upload-Offset')),
      length: Number(response.headers.get('Upload-Length')),
    };
  }

  /**
   * The page opened again (a reload, a return): an import that was under way is
   * sent again, or its result shown if it ended; an unfinished upload of this
   * service is shown where the server has it, to continue with the same file.
   */
  async function carryOn(): Promise<void> {
    const importing = storage()?.getItem(IMPORTING_KEY);
    if (importing) {
      const { uploadUrls, action } = JSON.parse(importing) as { uploadUrls: string[]; action: string };
      if (action === form.action && Array.isArray(uploadUrls)) {
        show(true);
        showImporting();
        const has = await Promise.all(uploadUrls.map(serverHas));
        if (has.every((upload) => upload && upload.offset === upload.length)) return importUploads(uploadUrls);
        storage()?.removeItem(IMPORTING_KEY);
        // The import ended while the page was away (and removed the uploads): its result page says how.
        if (has.some((upload) => !upload))
          return window.location.assign(new URL('/connect/result', window.location.href).href);
      }
    }
    const stored: PreviousUpload[] = await defaultOptions.urlStorage.findAllUploads();
    for (const previous of stored.filter((entry) => entry.metadata.provider === provider)) {
      const has = previous.uploadUrl ? await serverHas(previous.uploadUrl) : undefined;
      if (!has) {
        await defaultOptions.urlStorage.removeUpload(previous.urlStorageKey);
        continue;
      }
      unfinished = { name: previous.metadata.filename || '', size: has.length };
      bar.value = Math.floor((has.offset / has.length) * 100);
      progressBox.hidden = false;
      saying(say('resume').replace('{file}', unfinished.name).replace('{percent}', String(bar.value)));
      return;
    }
  }
  if (endpoint) carryOn().catch(() => undefined);
}
