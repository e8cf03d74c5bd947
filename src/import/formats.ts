import { chatgptExport } from './chatgpt-export.ts';
import { claudeExport } from './claude-export.ts';
import type { ExportFormat } from './conversation.ts';
import { copilotExport } from './copilot-export.ts';
import { deepseekExport } from './deepseek-export.ts';
import { geminiExport } from './gemini-export.ts';
import { grokExport } from './grok-export.ts';

/** Every export Parley reads; each recognises only its own records. */
export const EXPORT_FORMATS: readonly ExportFormat[] = [chatgptExport, claudeExport, deepseekExport, grokExport, geminiExport, copilotExport];

export const formatFor = (provider: string): ExportFormat | undefined => EXPORT_FORMATS.find((format) => format.provider === provider);
