/**
 * Every benchmark of bench/, one after the other (npm run bench).
 * Usage: npx tsx bench/run-all.ts [--check] [--json] [proxy options, see proxy-throughput.ts]
 *        [policy list options, see policy-list.ts] [--rows=N, see policies-table.ts]
 *        [--lists=policies,customers, see list-long-tasks.ts; --runs=N counts for it and policy-list.ts]
 *        [workflow options, see workflow-monitor.ts and workflow-engine.ts]
 *        [--invoices=N --invoice-deep-page=N --invoice-data-dir=<dir>, see invoice-list.ts]
 *        [--policies=N --billing-data-dir=<dir>, see billing-run.ts]
 */
import {
  bundlesJson,
  measureBundles,
  missingBuildMessage,
  printBundles,
  type BundleReport,
} from './bundle-size.ts';
import { measureProxy, parseProxyArgs, printProxy, type ProxyReport } from './proxy-throughput.ts';
import {
  measurePolicyList,
  parsePolicyListArgs,
  printPolicyList,
  type PolicyListReport,
} from './policy-list.ts';
import {
  measurePoliciesTable,
  parsePoliciesTableArgs,
  printPoliciesTable,
  type PoliciesTableReport,
} from './policies-table.ts';
import {
  measureListLongTasks,
  parseListLongTasksArgs,
  printListLongTasks,
  type ListLongTasksReport,
} from './list-long-tasks.ts';
import {
  measureWorkflowMonitor,
  parseWorkflowMonitorArgs,
  printWorkflowMonitor,
  type WorkflowMonitorReport,
} from './workflow-monitor.ts';
import {
  measureInvoiceList,
  parseInvoiceListArgs,
  printInvoiceList,
  type InvoiceListReport,
} from './invoice-list.ts';
import {
  measureBillingRun,
  parseBillingRunArgs,
  printBillingRun,
  type BillingRunReport,
} from './billing-run.ts';
import {
  measureWorkflowEngine,
  parseWorkflowEngineArgs,
  printWorkflowEngine,
  type WorkflowEngineReport,
} from './workflow-engine.ts';

async function main() {
  const argv = process.argv.slice(2);
  const json = argv.includes('--json');
  const failures: string[] = [];

  // Run one after the other, never together: the browser run would skew the proxy timings.
  let bundles: BundleReport | null = null;
  const missing = missingBuildMessage();
  if (missing) {
    console.error(missing);
    failures.push('bundle size not measured: no client build');
  } else {
    bundles = await measureBundles();
    failures.push(...bundles.failures);
    if (!json) printBundles(bundles);
  }

  const proxy: ProxyReport = await measureProxy(parseProxyArgs(argv));
  failures.push(...proxy.failures);
  if (!json) printProxy(proxy);

  const policyList: PolicyListReport = await measurePolicyList(parsePolicyListArgs(argv));
  failures.push(...policyList.failures);
  if (!json) printPolicyList(policyList);

  // The workflow monitor at 50 000 instances and the engine's throughput (issue 17).
  const workflowMonitor: WorkflowMonitorReport = await measureWorkflowMonitor(
    parseWorkflowMonitorArgs(argv),
  );
  failures.push(...workflowMonitor.failures);
  if (!json) printWorkflowMonitor(workflowMonitor);
  const workflowEngine: WorkflowEngineReport = await measureWorkflowEngine(
    parseWorkflowEngineArgs(argv),
  );
  failures.push(...workflowEngine.failures);
  if (!json) printWorkflowEngine(workflowEngine);

  // The invoice list at 1 000 000 invoices and the billing run over 100 000 policies (issue 18).
  const invoiceList: InvoiceListReport = await measureInvoiceList(parseInvoiceListArgs(argv));
  failures.push(...invoiceList.failures);
  if (!json) printInvoiceList(invoiceList);
  const billingRun: BillingRunReport = await measureBillingRun(parseBillingRunArgs(argv));
  failures.push(...billingRun.failures);
  if (!json) printBillingRun(billingRun);

  // The browser over the built client; without a build only the note above says why.
  let policiesTable: PoliciesTableReport | null = null;
  if (missing) {
    failures.push('policies table not measured: no client build');
  } else {
    policiesTable = await measurePoliciesTable(parsePoliciesTableArgs(argv));
    failures.push(...policiesTable.failures);
    if (!json) printPoliciesTable(policiesTable);
  }

  // Long tasks while the lists open (issue 14, goal 5), over the same build.
  let listLongTasks: ListLongTasksReport | null = null;
  if (missing) {
    failures.push('long tasks of the lists not measured: no client build');
  } else {
    listLongTasks = await measureListLongTasks(parseListLongTasksArgs(argv));
    failures.push(...listLongTasks.failures);
    if (!json) printListLongTasks(listLongTasks);
  }

  if (json) {
    console.log(
      JSON.stringify(
        {
          bundles: bundles && bundlesJson(bundles),
          proxy,
          policyList,
          workflowMonitor,
          workflowEngine,
          invoiceList,
          billingRun,
          policiesTable,
          listLongTasks,
          failures,
        },
        null,
        2,
      ),
    );
  } else {
    console.log(failures.length ? '' : '\nAll budgets met.');
  }
  if (failures.length) {
    for (const f of failures) console.error(`BUDGET BROKEN: ${f}`);
    // Without --check the figures are informational: report, but do not fail.
    if (argv.includes('--check')) process.exit(1);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
