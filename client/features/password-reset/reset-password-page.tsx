// PLACEHOLDER (wiring only): replaced by the feature's page in this session.
export default function Placeholder() {
  return null;
}
