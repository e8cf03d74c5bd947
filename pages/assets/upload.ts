/**
 * Progressive enhancement of the upload form: the chosen file's name and size in
 * the drop zone, and, while the file goes up, a progress state in its place
 * (bytes, percent, then "Importing…"), scrolled into view. Without it the form
 * posts as usual; with it, the same post goes through XMLHttpRequest (fetch
 * cannot report upload progress) and the browser then opens the result page the
 * server redirected to — unless the file turned out to be another service's
 * export: then the page offers to send the same file as that service's, so the
 * person does not pick it again.
 */
const form = document.querySelector<HTMLFormElement>('form.upload');
if (form) sendTimeZone(form);
if (form && 'XMLHttpRequest' in window && 'FormData' in window) enhance(form);

/** The browser's zone, for exports whose times have none (Duck.ai): without the script they are read as UTC. */
function sendTimeZone(form: HTMLFormElement): void {
  const field = form.querySelector<HTMLInputElement>('input[name=timeZone]');
  if (field) field.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
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
  const maxBytes = Number(form.getAttribute('data-max-bytes'));
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

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) chosen.textContent = `${file.name} · ${size(file.size)}`;
  });
  for (const type of ['dragenter', 'dragover']) zone.addEventListener(type, () => zone.classList.add('dragging'));
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('dragging'));
  form.addEventListener('submit', (event) => {
    const file = input.files?.[0];
    if (!file) return;
    event.preventDefault();
    error.hidden = true;
    if (maxBytes && file.size > maxBytes) return fail(say('too-large'));
    send(new FormData(form));
  });

  /** A refusal's page as one sentence: its heading, then its advice. */
  const sayRefusal = (page: Document) => {
    const heading = page.querySelector('h1');
    const advice = heading?.parentNode?.querySelector('h1 + p');
    return (heading ? `${heading.textContent}. ` : `${say('refused')} `) + (advice ? advice.textContent : '');
  };

  /** The refusal said, and a button that sends `data` again to the service the file is from. */
  const offerAnother = (page: Document, offer: HTMLAnchorElement, data: FormData) => {
    fail(sayRefusal(page));
    const again = document.createElement('button');
    again.type = 'button';
    again.className = 'button';
    again.textContent = offer.textContent;
    again.addEventListener('click', () => {
      form.setAttribute('action', offer.getAttribute('href')!);
      error.hidden = true;
      send(data);
    });
    error.append(' ', again);
  };

  // Many imports under way: the server says 503 and when to try again, and the
  // page does so by itself, sending the file again.
  function send(data: FormData): void {
    const request = new XMLHttpRequest();
    request.open('POST', form.action);
    request.upload.addEventListener('progress', (e) => {
      if (!e.lengthComputable) return;
      const percent = Math.round((e.loaded / e.total) * 100);
      bar.value = percent;
      text.textContent =
        percent < 100
          ? say('progress')
              .replace('{loaded}', size(e.loaded))
              .replace('{total}', size(e.total))
              .replace('{percent}', String(percent))
          : say('reading');
    });
    request.addEventListener('load', () => {
      // The import's outcome, good or bad, is a redirect to the result page. A
      // refusal before it (an expired session, a stale form) is an error page at
      // the form's own address instead: show what it says here.
      const redirected = request.responseURL && request.responseURL !== form.action;
      if (!redirected && request.status === 503) {
        const seconds = Number(request.getResponseHeader('Retry-After')) || 5;
        text.textContent = say('busy');
        setTimeout(() => send(data), seconds * 1000);
        return;
      }
      if (request.status >= 400) {
        const page = new DOMParser().parseFromString(request.responseText, 'text/html');
        if (!redirected) return fail(sayRefusal(page));
        // A file of another service than the one chosen: one click sends the same file as that one's.
        const offer = page.querySelector<HTMLAnchorElement>('a[data-import-as]');
        if (offer) return offerAnother(page, offer, data);
      }
      window.location.assign(request.responseURL || form.action);
    });
    request.addEventListener('error', () => fail(say('interrupted')));
    error.replaceChildren();
    button.disabled = true;
    bar.value = 0;
    text.textContent = say('starting');
    show(true);
    request.send(data);
  }
}
