package render
import ("context";"testing";"fmt";"os";"github.com/editaudit/editaudit/pixeldiff")
func TestZZBands(t *testing.T){
 r, err := New(context.Background(), Config{Pool: PoolOptions{Workers:1}}); if err != nil { t.Fatal(err) }
 defer r.Close()
 for _, f := range []string{"/work/shared/corpus/real/pptx/oxsdk_typical-deck.pptx","/work/shared/corpus/real/pptx/poi_real-deck-HowWeRefactor.pptx","/work/shared/corpus/real/pptx/oxsdk_Bug571679_Brownbag.pptx","/work/shared/corpus/real/pptx/poi_real-deck-aascu-5864.pptx"} {
 d := pixeldiff.NewBandDetector()
 _, err = r.Render(context.Background(), f, func(p int, ra *pixeldiff.Raster, w, h float64) error { d.Add(ra); return nil })
 if err != nil { t.Fatal(err) }
 a, err := r.RenderSigs(context.Background(), f, nil); if err != nil { t.Fatal(err) }
 os.Remove(a.PDF)
 fmt.Println(f, "pixel bands", d.Bands(), "confirmed", a.Bands)
 }
}
