import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { PageBrand } from '../src/apps/page-settings.ts';

/** How the person goes back to the app: `parley_status` on the returnUrl and in the message to the opener. */
export type ReturnStatus = 'success' | 'cancelled' | 'error';

/** What frames every page of an app: its brand, and the way back its link gave (its origin registered). */
export interface PageFrame {
  brand?: PageBrand | undefined;
  returnUrl?: string | undefined;
  /** What leaving the page for the app means, on pages that do not say it themselves. */
  returnStatus?: ReturnStatus | undefined;
}

export const PageFrameContext = createContext<PageFrame>({});

export const usePageFrame = (): PageFrame => useContext(PageFrameContext);
