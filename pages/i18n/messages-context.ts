import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { en, type Messages } from './en.ts';

/** The person's language's catalogue, provided once per rendered page. */
export const MessagesContext = createContext<Messages>(en);

export const useMessages = (): Messages => useContext(MessagesContext);
