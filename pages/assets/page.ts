/**
 * What every page does once loaded: times, written in UTC by the server, said
 * in the browser's own time zone (the UTC time stays as the element's title),
 * and a copy button on each code block of a conversation.
 */
const lang = document.documentElement.lang || 'en';

// English keeps the unambiguous 2026-03-01 12:00 form the server writes.
const english = new Intl.DateTimeFormat('en', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});
const other = new Intl.DateTimeFormat(lang, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

function local(date: Date): string {
  if (lang !== 'en') return other.format(date);
  const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of english.formatToParts(date)) p[part.type] = part.value;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

for (const time of document.querySelectorAll<HTMLTimeElement>('time[datetime]')) {
  const date = new Date(time.getAttribute('datetime')!);
  if (Number.isNaN(date.getTime())) continue;
  // A relative time ("2 hr. ago") stays as it is; its title says when, locally.
  if (time.hasAttribute('data-relative')) {
    time.title = local(date);
    continue;
  }
  time.title = time.textContent ?? '';
  time.textContent = local(date);
}

const messages = document.querySelector('[data-text-copy]');
if (messages && navigator.clipboard) addCopyButtons(messages);

/** The figures are the server's Markdown (pages/markdown.ts): a caption, then the code's pre. */
function addCopyButtons(messages: Element): void {
  const copy = messages.getAttribute('data-text-copy')!;
  const copied = messages.getAttribute('data-text-copied')!;
  for (const figure of messages.querySelectorAll('figure.code')) {
    const caption = figure.querySelector('figcaption')!;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = copy;
    button.setAttribute('aria-label', `${copy} ${caption.textContent}`);
    button.addEventListener('click', () => {
      // biome-ignore lint/performance/useDomNodeTextContent: the code as the page shows it is what a person copies.
      void navigator.clipboard.writeText(figure.querySelector('pre')!.innerText).then(() => {
        button.textContent = copied;
        setTimeout(() => {
          button.textContent = copy;
        }, 2000);
      });
    });
    caption.appendChild(button);
  }
}
