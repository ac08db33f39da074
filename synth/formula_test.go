package synth

import "testing"

func TestFileFormula(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SUM(A1:A3)", "SUM(A1:A3)"},
		{"XLOOKUP(A2,B:B,C:C)", "_xlfn.XLOOKUP(A2,B:B,C:C)"},
		{"xlookup(A2,B:B,C:C)", "_xlfn.XLOOKUP(A2,B:B,C:C)"},
		{"_xlfn.XLOOKUP(A2,B:B,C:C)", "_xlfn.XLOOKUP(A2,B:B,C:C)"},
		{"FILTER(A1:A9,B1:B9>0)", "_xlfn._xlws.FILTER(A1:A9,B1:B9>0)"},
		{"SORT(UNIQUE(A1:A9))", "_xlfn._xlws.SORT(_xlfn.UNIQUE(A1:A9))"},
		{"LET(x,A1*2,x+1)", "_xlfn.LET(_xlpm.x,A1*2,_xlpm.x+1)"},
		{"LET(rate, 0.2, base, B2, base*(1+rate))", "_xlfn.LET(_xlpm.rate, 0.2, _xlpm.base, B2, _xlpm.base*(1+_xlpm.rate))"},
		{"LET(x,1,y,x+1,LET(z,y*2,z+x))", "_xlfn.LET(_xlpm.x,1,_xlpm.y,_xlpm.x+1,_xlfn.LET(_xlpm.z,_xlpm.y*2,_xlpm.z+_xlpm.x))"},
		{"LAMBDA(a,b,a*b)(2,3)", "_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(2,3)"},
		{`LET(x,"x",x&"x")`, `_xlfn.LET(_xlpm.x,"x",_xlpm.x&"x")`},
		{"LET(x,1,Sheet1!x+x)", "_xlfn.LET(_xlpm.x,1,Sheet1!x+_xlpm.x)"},
		{"LET(n,Sales[Total],SUM(n))", "_xlfn.LET(_xlpm.n,Sales[Total],SUM(_xlpm.n))"},
		{"x+LET(x,1,x)", "x+_xlfn.LET(_xlpm.x,1,_xlpm.x)"},
		{"'My sheet'!A1+IFS(A1>1,1,TRUE,0)", "'My sheet'!A1+_xlfn.IFS(A1>1,1,TRUE,0)"},
		{"_xlfn.LET(_xlpm.x,1,_xlpm.x)", "_xlfn.LET(_xlpm.x,1,_xlpm.x)"},
	}
	for _, tc := range tests {
		got, err := fileFormula(tc.in)
		if err != nil {
			t.Errorf("fileFormula(%q): %v", tc.in, err)
			continue
		}
		if got != tc.want {
			t.Errorf("fileFormula(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"SUM(A1", "SUM(A1))", `"abc`, "LET(x,1)", "LET(1,2,3)"} {
		if _, err := fileFormula(bad); err == nil {
			t.Errorf("fileFormula(%q) accepted it", bad)
		}
	}
}
