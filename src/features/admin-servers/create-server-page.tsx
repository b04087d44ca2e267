export function CreateServerPage() {
  return null;
}
