import { chatgptExport } from './chatgpt-export.ts';
import { claudeExport } from './claude-export.ts';
import type { ExportFormat } from './conversation.ts';

/** Every export Parley reads, tried in this order when recognising a file. */
export const EXPORT_FORMATS: readonly ExportFormat[] = [chatgptExport, claudeExport];

export const formatFor = (provider: string): ExportFormat | undefined => EXPORT_FORMATS.find((format) => format.provider === provider);
