import type { JSX } from 'preact';
import { type ProviderId, providerName } from './providers.ts';

const WHITE = '#fff';
const line = {
  fill: 'none',
  stroke: WHITE,
  'stroke-width': 2,
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
} as const;

/**
 * Each provider's mark as the pages draw it: its colour and a shape of its own
 * (a knot, a burst, a spark…), drawn here rather than served from the
 * providers' logo files, so two providers never share a tile. On a 24-unit
 * square; the tile's colour comes first.
 */
const MARKS: Record<ProviderId, { tile: string; shape: JSX.Element }> = {
  openai: {
    tile: '#0b6e55',
    shape: (
      <g {...line} stroke-width={1.6}>
        <ellipse cx="12" cy="12" rx="7" ry="3.2" />
        <ellipse cx="12" cy="12" rx="7" ry="3.2" transform="rotate(60 12 12)" />
        <ellipse cx="12" cy="12" rx="7" ry="3.2" transform="rotate(120 12 12)" />
      </g>
    ),
  },
  anthropic: {
    tile: '#a94e2a',
    shape: <path {...line} stroke-width={2.2} d="M12 4.5v15M4.5 12h15M6.7 6.7l10.6 10.6M17.3 6.7 6.7 17.3" />,
  },
  google: {
    tile: '#1a56c4',
    shape: <path fill={WHITE} d="M12 3c.8 5 4 8.2 9 9-5 .8-8.2 4-9 9-.8-5-4-8.2-9-9 5-.8 8.2-4 9-9Z" />,
  },
  microsoft: {
    tile: '#5b3fa8',
    shape: (
      <>
        <rect x="3.5" y="7" width="10.5" height="10" rx="4" fill="#8fe3d4" />
        <rect x="10" y="7" width="10.5" height="10" rx="4" fill={WHITE} fill-opacity="0.9" />
      </>
    ),
  },
  xai: {
    tile: '#1b1f24',
    shape: (
      <g {...line} stroke-width={1.8}>
        <circle cx="12" cy="12" r="6.5" />
        <path d="M5 19 19 5" />
      </g>
    ),
  },
  deepseek: {
    tile: '#3146b5',
    shape: (
      <>
        <ellipse cx="10.5" cy="13.5" rx="6.5" ry="4.5" fill={WHITE} />
        <path fill={WHITE} d="M15.5 12.5 20.5 8v7.5Z" />
        <circle cx="8" cy="12.5" r="1" fill="#3146b5" />
      </>
    ),
  },
  perplexity: {
    tile: '#1f6f78',
    shape: <path {...line} stroke-width={1.7} d="M12 3.5v17M6 7.5h12v7H6ZM6 7.5l6 5 6-5M6 14.5l6-2 6 2" />,
  },
  duckduckgo: {
    tile: '#b5461f',
    shape: (
      <>
        <circle cx="12" cy="12" r="7" fill={WHITE} />
        <circle cx="13.5" cy="9.5" r="1.2" fill="#1b1f24" />
        <ellipse cx="15" cy="13.5" rx="3" ry="1.4" fill="#f2a33a" />
      </>
    ),
  },
  mistral: {
    tile: '#1b1f24',
    shape: (
      <>
        <path fill="#ffd800" d="M4 4h3v3H4Zm13 0h3v3h-3Z" />
        <path fill="#ffaf00" d="M4 7h6v3H4Zm10 0h6v3h-6Z" />
        <path fill="#ff8205" d="M4 10h16v3H4Z" />
        <path fill="#fa500f" d="M4 13h3v3H4Zm6.5 0h3v3h-3Zm6.5 0h3v3h-3Z" />
        <path fill="#e10500" d="M4 16h3v3H4Zm13 0h3v3h-3Z" />
      </>
    ),
  },
  meta: {
    tile: '#0a5bc4',
    shape: (
      <path
        {...line}
        stroke-width={2.2}
        d="M4.5 12c0-3 1.7-5 3.7-5 3.3 0 4.3 10 7.6 10 1.9 0 3.7-2 3.7-5s-1.8-5-3.7-5c-3.3 0-4.3 10-7.6 10-2 0-3.7-2-3.7-5Z"
      />
    ),
  },
};

/**
 * A provider's mark, named for a screen reader by the provider's name; a
 * provider the pages have no mark for gets the first letter of its name.
 */
export function ProviderMark({ provider }: { provider: string }) {
  const name = providerName(provider);
  const mark = Object.hasOwn(MARKS, provider) ? MARKS[provider as ProviderId] : undefined;
  return (
    <svg class="provider-icon" viewBox="0 0 24 24" role="img" aria-label={name} focusable="false">
      <rect width="24" height="24" rx="6" fill={mark?.tile ?? '#4a5361'} />
      {mark?.shape ?? (
        <text x="12" y="16.5" text-anchor="middle" font-size="13" font-weight="700" fill={WHITE}>
          {name.slice(0, 1)}
        </text>
      )}
    </svg>
  );
}
