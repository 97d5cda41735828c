// The GraphiQL page's own script: a file beside the page, not inline, so that the page's
// policy can refuse every inline script (service/api/edge/headers.py).
const EXAMPLE_QUERY = `# The games this server hosts. Create one with createGame, act with a seat token
# (Headers: {"Authorization": "Bearer <token>"}) and follow it with gameEvents.
{
  catalog { kind title players { min max } }
}
`;
const url = new URL(window.location.href);
url.search = "";
url.hash = "";
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === "https:" ? "wss:" : "ws:";
const fetcher = GraphiQL.createFetcher({
  url: url.toString(),
  subscriptionUrl: subscriptionUrl.toString(),
});
const explorer = GraphiQLPluginExplorer.explorerPlugin();
ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: EXAMPLE_QUERY,
    plugins: [explorer],
    defaultEditorToolsVisibility: true,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
  }),
);
