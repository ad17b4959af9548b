// Placeholder being filled in; see the foundation issue.
export function CreateParserPage() {
  return <main className="p-8">Create parser</main>
}
