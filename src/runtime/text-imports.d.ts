// Bun imports schema.sql as text (`with { type: 'text' }`), so a compiled binary carries it.
declare module '*.sql' {
  const text: string;
  export default text;
}
