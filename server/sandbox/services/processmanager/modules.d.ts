// dmn-moddle ships no types: the little of it the decision tables read.
declare module 'dmn-moddle' {
  export class DmnModdle {
    fromXML(xml: string, type?: string): Promise<{ rootElement: any; warnings: unknown[] }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a moddle tree
  }
}

// bpmn-moddle's types name its element types, not the reader: the reader as the code uses it.
declare module 'bpmn-moddle' {
  export class BpmnModdle {
    fromXML(xml: string, type?: string): Promise<{ rootElement: any; warnings: unknown[] }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a moddle tree
  }
}
